import "server-only";
import { type AnswerSummary, decodeBuckets, encodeBuckets } from "@/lib/domain/insight-histogram";
import {
  ANY_REVIEWER_GROUP,
  daysBetween,
  type InsightScope,
  liveFrom,
  OWNER_GROUP,
  summariseAnswers,
} from "@/lib/domain/insights";
import type { DbClient } from "./db-types";
import { type LockedRun, runUnlessLocked } from "./sql/advisory-lock";
import { hotSqlOf, readSqlTime } from "./sql/hot-sql";
import { type SqlStatement, sql, sqlJoin, sqlList, sqlTable, sqlTime } from "./sql/sql-statement";
import { isUniqueViolation } from "./sql/unique-violation";

// Summaries of closed days' answers (ADR 0099). A day that ended (plus SUMMARY_MARGIN_MS) gets no
// new answers, so its summary is written once, on the first read that needs it, and read ever
// after; the answer path writes nothing for it.

const DAY_MS = 86_400_000;

type Addressees = { audience: string; audienceGroup: string | null };

/** A request's addressees as insights group them. */
export function groupOf(row: Addressees): string {
  if (row.audience === "group" && row.audienceGroup) return row.audienceGroup;
  return row.audience === "reviewers" ? ANY_REVIEWER_GROUP : OWNER_GROUP;
}

/** Who a request was addressed to, for a scope and a group filter, on the request `r`. */
function addresseesSql(scope: InsightScope, group: string | undefined): SqlStatement[] {
  const and: SqlStatement[] = [];
  if (scope.kind === "groups")
    and.push(
      scope.slugs.length > 0
        ? sql`(r."audience" = 'reviewers' OR (r."audience" = 'group' AND r."audienceGroup" IN (${sqlList(scope.slugs)})))`
        : sql`r."audience" = 'reviewers'`,
    );
  if (group === ANY_REVIEWER_GROUP) and.push(sql`r."audience" = 'reviewers'`);
  else if (group === OWNER_GROUP) and.push(sql`r."audience" = 'owner'`);
  else if (group) and.push(sql`r."audience" = 'group' AND r."audienceGroup" = ${group}`);
  return and;
}

type AnswerRow = { answeredAt: unknown; ok: unknown; askedAt: unknown } & Addressees & { toolName: string };

/**
 * The answers written in [from, until), in a scope, summarised per day, tool and group. One
 * join by `Answer (createdAt, id)` or `(toolName, createdAt, id)`: a whole day's answers read
 * through Prisma's relation load (a second query with every request id) cost several times more.
 */
export async function summariseAnswersBetween({
  db,
  from,
  until,
  scope = { kind: "all" },
  tool,
  group,
}: {
  db: DbClient;
  from: Date;
  until: Date;
  scope?: InsightScope;
  tool?: string | undefined;
  group?: string | undefined;
}): Promise<AnswerSummary[]> {
  const where = [
    sql`a."createdAt" >= ${sqlTime(from)}`,
    sql`a."createdAt" < ${sqlTime(until)}`,
    // Decisions only: an expiry or a cancel decides nothing, and would count its whole wait as a
    // time to answer (expiries have a chart of their own).
    sql`(a."reason" IS NULL OR a."reason" = 'declined')`,
    ...(tool ? [sql`a."toolName" = ${tool}`] : []),
    ...addresseesSql(scope, group),
  ];
  const rows = await hotSqlOf(db).query<AnswerRow>(
    sql`SELECT a."createdAt" AS "answeredAt", a."ok" AS "ok", r."createdAt" AS "askedAt", r."toolName" AS "toolName", r."audience" AS "audience", r."audienceGroup" AS "audienceGroup" FROM ${sqlTable("Answer")} a JOIN ${sqlTable("Request")} r ON r."id" = a."requestRowId" WHERE ${sqlJoin(where, " AND ")}`,
  );
  return summariseAnswers(
    rows.map((row) => ({
      tool: row.toolName,
      group: groupOf(row),
      askedAt: readSqlTime(row.askedAt),
      answeredAt: readSqlTime(row.answeredAt),
      ok: row.ok === true || row.ok === 1,
    })),
  );
}

/**
 * The tools of the answers written since `from` in a scope (expiries and cancels too), by the
 * same join as `summariseAnswersBetween`: the tool choices' live part, the days not summarised.
 */
export async function listToolsAnsweredSince({
  db,
  from,
  scope,
}: {
  db: DbClient;
  from: Date;
  scope: InsightScope;
}): Promise<string[]> {
  const where = [sql`a."createdAt" >= ${sqlTime(from)}`, ...addresseesSql(scope, undefined)];
  const rows = await hotSqlOf(db).query<{ toolName: string }>(
    sql`SELECT DISTINCT r."toolName" AS "toolName" FROM ${sqlTable("Answer")} a JOIN ${sqlTable("Request")} r ON r."id" = a."requestRowId" WHERE ${sqlJoin(where, " AND ")}`,
  );
  return rows.map((row) => row.toolName);
}

/**
 * Summarises each closed day from `since` that has no summary yet; returns the days this call
 * wrote. The day's InsightDay row goes first in the transaction: a second pass racing for the
 * same day fails on its key (waiting for the first to commit on PostgreSQL) and writes nothing.
 */
export async function summariseClosedDays({
  db,
  now,
  since,
}: {
  db: DbClient;
  now: Date;
  since: Date;
}): Promise<string[]> {
  const days = daysBetween(since, liveFrom(now));
  if (days.length === 0) return [];
  const done = await db.insightDay.findMany({ where: { day: { in: days } }, select: { day: true } });
  const summarised = new Set(done.map((row) => row.day));
  const written: string[] = [];
  for (const day of days) {
    if (summarised.has(day)) continue;
    const from = new Date(`${day}T00:00:00.000Z`);
    const summaries = await summariseAnswersBetween({ db, from, until: new Date(from.getTime() + DAY_MS) });
    try {
      // One batch, no read inside: an interactive transaction would wait on SQLite's lock.
      await db.$transaction([
        db.insightDay.create({ data: { day } }),
        db.insightDaySummary.createMany({
          data: summaries.map((summary) => ({
            day,
            toolName: summary.tool,
            group: summary.group,
            approved: summary.approved,
            declined: summary.declined,
            slowestMs: summary.slowestMs,
            histogram: encodeBuckets(summary.buckets),
          })),
        }),
      ]);
      written.push(day);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return written;
}

/**
 * The background pass's round: `summariseClosedDays` in one instance at a time. Another finds
 * the lock held and skips the round at once ("busy"), reading nothing; the page's loader calls
 * `summariseClosedDays` itself, without the lock, and the day's key still settles any race.
 */
export function summariseClosedDaysAlone(args: {
  db: DbClient;
  now: Date;
  since: Date;
}): Promise<LockedRun<string[]>> {
  return runUnlessLocked(args.db, "insight-summaries", () => summariseClosedDays(args));
}

/** The stored summaries of the days in [from, until) in a scope, for a tool and group filter. */
export async function readDaySummaries({
  db,
  scope,
  from,
  until,
  tool,
  group,
}: {
  db: DbClient;
  scope: InsightScope;
  from: Date;
  until: Date;
  tool: string | undefined;
  group: string | undefined;
}): Promise<AnswerSummary[]> {
  const and: object[] = [];
  if (scope.kind === "groups") and.push({ group: { in: [ANY_REVIEWER_GROUP, ...scope.slugs] } });
  if (group) and.push({ group });
  const rows = await db.insightDaySummary.findMany({
    where: {
      day: { gte: from.toISOString().slice(0, 10), lt: until.toISOString().slice(0, 10) },
      ...(tool ? { toolName: tool } : {}),
      AND: and,
    },
  });
  return rows.map((row) => ({
    day: row.day,
    tool: row.toolName,
    group: row.group,
    approved: row.approved,
    declined: row.declined,
    slowestMs: row.slowestMs,
    buckets: decodeBuckets(row.histogram),
  }));
}
