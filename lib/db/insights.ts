import "server-only";
import {
  ANY_REVIEWER_GROUP,
  type AnsweredRow,
  computeInsights,
  type InsightFigures,
  type InsightFilters,
  type InsightScope,
  type OpenRow,
  OWNER_GROUP,
  periodStart,
} from "@/lib/domain/insights";
import type { DbClient } from "./db-types";

type Addressees = { audience: string; audienceGroup: string | null };

function groupOf(row: Addressees): string {
  if (row.audience === "group" && row.audienceGroup) return row.audienceGroup;
  return row.audience === "reviewers" ? ANY_REVIEWER_GROUP : OWNER_GROUP;
}

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
 * Every figure of /admin/insights for a viewer's scope and filters. Answers are found by their
 * own (createdAt) and (toolName, createdAt) indexes, expiries by (status, expiresAt), open
 * requests by (status, …, createdAt); percentiles are nearest-rank over the durations read, so
 * both databases give the same numbers.
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
  const addressees = whereAddressees(scope, filters.group);
  const request = { ...addressees, ...(filters.tool ? { toolName: filters.tool } : {}) };
  const [answers, expired, escalated, open] = await Promise.all([
    db.answer.findMany({
      where: {
        createdAt: { gte: since, lte: now },
        ...(filters.tool ? { toolName: filters.tool } : {}),
        // An admin's unfiltered view needs no condition on the request (and no join for it).
        ...(addressees.AND.length > 0 ? { request: addressees } : {}),
      },
      select: {
        createdAt: true,
        ok: true,
        request: { select: { createdAt: true, toolName: true, audience: true, audienceGroup: true } },
      },
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
  const answered: AnsweredRow[] = answers.map((row) => ({
    tool: row.request.toolName,
    group: groupOf(row.request),
    askedAt: row.request.createdAt,
    answeredAt: row.createdAt,
    ok: row.ok,
  }));
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
    answered,
    expiredAt: expired.flatMap((row) => (row.expiresAt ? [row.expiresAt] : [])),
    escalatedAt: escalated.flatMap((row) => (row.firedAt ? [row.firedAt] : [])),
    open: openRows,
  });
}

/** The tools and groups a viewer can filter by: those their scope's requests name. */
export async function listInsightChoices({
  db,
  scope,
}: {
  db: DbClient;
  scope: InsightScope;
}): Promise<{ tools: string[]; groups: string[] }> {
  const [tools, groups] = await Promise.all([
    db.request.findMany({
      where: whereAddressees(scope, undefined),
      distinct: ["toolName"],
      select: { toolName: true },
      orderBy: { toolName: "asc" },
    }),
    scope.kind === "all"
      ? db.approverGroup.findMany({ select: { slug: true }, orderBy: { slug: "asc" } })
      : [],
  ]);
  const slugs = scope.kind === "all" ? groups.map((group) => group.slug) : scope.slugs;
  const pools = scope.kind === "all" ? [ANY_REVIEWER_GROUP, OWNER_GROUP] : [ANY_REVIEWER_GROUP];
  return { tools: tools.map((row) => row.toolName), groups: [...pools, ...slugs] };
}
