import "server-only";
import {
  ANY_REVIEWER_GROUP,
  computeInsights,
  type InsightFigures,
  type InsightFilters,
  type InsightScope,
  liveFrom,
  type OpenRow,
  OWNER_GROUP,
  periodStart,
} from "@/lib/domain/insights";
import type { DbClient } from "./db-types";
import {
  groupOf,
  listToolsAnsweredSince,
  readDaySummaries,
  summariseAnswersBetween,
  summariseClosedDays,
} from "./insight-summaries";

function whereGroup(group: string) {
  if (group === ANY_REVIEWER_GROUP) return { audience: "reviewers" };
  if (group === OWNER_GROUP) return { audience: "owner" };
  return { audience: "group", audienceGroup: group };
}

/**
 * Who a request was addressed to, for a scope and a group filter: one place, so every figure
 * agrees. The tool is filtered on each table's own column (answers carry it too, indexed).
 */
function whereAddressees(scope: InsightScope, group: string | undefined) {
  const and: object[] = [];
  if (scope.kind === "groups")
    and.push({ OR: [{ audience: "reviewers" }, { audience: "group", audienceGroup: { in: scope.slugs } }] });
  if (group) and.push(whereGroup(group));
  return { AND: and };
}

/**
 * Every figure of /admin/insights for a viewer's scope and filters. Answers of closed days come
 * from their per-day summaries (written here the first time a day is needed, ADR 0099), the rest
 * of the period's answers are read live by their (createdAt) and (toolName, createdAt) indexes;
 * expiries by (status, expiresAt), open requests by (status, …, createdAt).
 */
export async function loadInsights({
  db,
  scope,
  filters,
  now,
}: {
  db: DbClient;
  scope: InsightScope;
  filters: InsightFilters;
  now: Date;
}): Promise<InsightFigures> {
  const since = periodStart(now, filters.days);
  const live = new Date(Math.max(since.getTime(), liveFrom(now).getTime()));
  await summariseClosedDays({ db, now, since });
  const addressees = whereAddressees(scope, filters.group);
  const request = { ...addressees, ...(filters.tool ? { toolName: filters.tool } : {}) };
  const [stored, today, expired, escalated, open] = await Promise.all([
    readDaySummaries({ db, scope, from: since, until: live, tool: filters.tool, group: filters.group }),
    summariseAnswersBetween({
      db,
      from: live,
      // The answers up to now, inclusive.
      until: new Date(now.getTime() + 1),
      scope,
      tool: filters.tool,
      group: filters.group,
    }),
    db.request.findMany({
      where: { status: "expired", expiresAt: { gte: since, lte: now }, ...request },
      select: { expiresAt: true },
    }),
    // Steps that widened who is asked, by the sweep's (firedAt, dueAt) index.
    db.requestEscalationStep.findMany({
      where: { kind: "add", firedAt: { gte: since, lte: now }, request },
      select: { firedAt: true },
    }),
    db.request.findMany({
      where: { status: "open", ...request },
      select: {
        id: true,
        toolName: true,
        prompt: true,
        createdAt: true,
        audience: true,
        audienceGroup: true,
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
  ]);
  const openRows: OpenRow[] = open.map((row) => ({
    id: row.id,
    tool: row.toolName,
    group: groupOf(row),
    prompt: row.prompt,
    askedAt: row.createdAt,
  }));
  return computeInsights({
    now,
    days: filters.days,
    answered: [...stored, ...today],
    expiredAt: expired.flatMap((row) => (row.expiresAt ? [row.expiresAt] : [])),
    escalatedAt: escalated.flatMap((row) => (row.firedAt ? [row.firedAt] : [])),
    open: openRows,
  });
}

/**
 * The tools and groups a viewer can filter by. Tools: those of the scope's summarised answers
 * (every summarised day, ADR 0099), of its answers not yet summarised (read live, as the figures
 * read them) and of its open requests: a request asked today is open or has its answer today.
 * Reading every request for them would cost more than the figures.
 */
export async function listInsightChoices({
  db,
  scope,
  now,
}: {
  db: DbClient;
  scope: InsightScope;
  now: Date;
}): Promise<{ tools: string[]; groups: string[] }> {
  const [answered, live, open, groups] = await Promise.all([
    db.insightDaySummary.groupBy({
      by: ["toolName"],
      where: scope.kind === "groups" ? { group: { in: [ANY_REVIEWER_GROUP, ...scope.slugs] } } : {},
    }),
    listToolsAnsweredSince({ db, from: liveFrom(now), scope }),
    db.request.groupBy({ by: ["toolName"], where: { status: "open", ...whereAddressees(scope, undefined) } }),
    scope.kind === "all"
      ? db.approverGroup.findMany({ select: { slug: true }, orderBy: { slug: "asc" } })
      : [],
  ]);
  const tools = new Set([...[...answered, ...open].map((row) => row.toolName), ...live]);
  const slugs = scope.kind === "all" ? groups.map((group) => group.slug) : scope.slugs;
  const pools = scope.kind === "all" ? [ANY_REVIEWER_GROUP, OWNER_GROUP] : [ANY_REVIEWER_GROUP];
  return { tools: [...tools].sort(), groups: [...pools, ...slugs] };
}
