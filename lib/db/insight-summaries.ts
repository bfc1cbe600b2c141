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

/** The answers written in [from, until), summarised per day, tool and group. */
export async function summariseAnswersBetween({
  db,
  from,
  until,
  tool,
  request,
}: {
  db: DbClient;
  from: Date;
  until: Date;
  tool?: string | undefined;
  /** A condition on the answered request (scope, group); none reads every answer. */
  request?: object | undefined;
}): Promise<AnswerSummary[]> {
  const answers = await db.answer.findMany({
    where: {
      createdAt: { gte: from, lt: until },
      ...(tool ? { toolName: tool } : {}),
      ...(request ? { request } : {}),
    },
    select: {
      createdAt: true,
      ok: true,
      request: { select: { createdAt: true, toolName: true, audience: true, audienceGroup: true } },
    },
  });
  return summariseAnswers(
    answers.map((row) => ({
      tool: row.request.toolName,
      group: groupOf(row.request),
      askedAt: row.request.createdAt,
      answeredAt: row.createdAt,
      ok: row.ok,
    })),
  );
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
