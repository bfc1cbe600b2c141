// How the inbox is doing, as figures: the pure arithmetic behind /admin/insights. Storage reads
// the rows (lib/db/insights.ts); this turns them into the numbers every chart, table and CSV
// shows, so each figure is computed once.
import { type AnswerSummary, addToSummary, histogramPercentile, mergeSummary } from "./insight-histogram";

/** The page's charts, in page order; each has a table and a CSV download of the same figures. */
export const INSIGHT_CHARTS = ["by-tool", "by-group", "open-by-age", "expiries", "rates", "slowest"] as const;
export type InsightChart = (typeof INSIGHT_CHARTS)[number];

export interface InsightTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

export const INSIGHT_PERIODS = [7, 30, 90] as const;
export type InsightPeriod = (typeof INSIGHT_PERIODS)[number];

/** A request's addressees as insights group them: a group's slug, or one of two pools. */
export const ANY_REVIEWER_GROUP = "*any";
export const OWNER_GROUP = "*owner";

/** Whose requests a viewer may see: admins all of them, reviewers their groups' and the pool's. */
export type InsightScope = { kind: "all" } | { kind: "groups"; slugs: string[] };

export type InsightFilters = { days: InsightPeriod; tool: string | undefined; group: string | undefined };

/** One answered request: when it was asked and answered, for which tool and addressees. */
export interface AnsweredRow {
  tool: string;
  group: string;
  askedAt: Date;
  answeredAt: Date;
  ok: boolean;
}

export interface OpenRow {
  id: string;
  tool: string;
  group: string;
  prompt: string;
  askedAt: Date;
}

export const AGE_BUCKETS = [
  { label: "under 1 hour", maxMinutes: 60 },
  { label: "1 to 4 hours", maxMinutes: 4 * 60 },
  { label: "4 to 24 hours", maxMinutes: 24 * 60 },
  { label: "1 to 3 days", maxMinutes: 3 * 24 * 60 },
  { label: "over 3 days", maxMinutes: Number.POSITIVE_INFINITY },
] as const;

export interface AnswerTimePoint {
  day: string;
  series: string;
  answers: number;
  p50Minutes: number;
  p90Minutes: number;
}

export interface InsightFigures {
  byTool: AnswerTimePoint[];
  byGroup: AnswerTimePoint[];
  openByAge: { bucket: string; open: number }[];
  /** Expired requests per day, every day of the period (zeros included). */
  expiriesPerDay: { day: string; expired: number }[];
  /** Escalation steps that widened who is asked (ADR 0093), per day, every day of the period. */
  escalationsPerDay: { day: string; escalated: number }[];
  ratesByTool: { tool: string; answers: number; approved: number; declined: number; approvedShare: number }[];
  slowestOpen: (OpenRow & { ageMinutes: number })[];
}

const DAY_MS = 24 * 60 * 60_000;

/** The nearest-rank percentile of ascending values: the smallest value with p of them at or below. */
export function nearestRank(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1] as number;
}

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The period's first instant: midnight UTC, `days - 1` days before today. */
export function periodStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/**
 * A day is summarised (ADR 0099) once it ended this long ago, so an answer written by an instance
 * whose clock runs behind, or by a transaction that commits late, still lands in a day read live.
 */
export const SUMMARY_MARGIN_MS = 15 * 60_000;

/** Midnight UTC of the first day still read live: every day before it has ended, plus the margin. */
export function liveFrom(now: Date): Date {
  const at = now.getTime() - SUMMARY_MARGIN_MS;
  return new Date(at - (((at % DAY_MS) + DAY_MS) % DAY_MS));
}

/** The UTC days from `from` (midnight) up to, not including, `until` (midnight). */
export function daysBetween(from: Date, until: Date): string[] {
  const days: string[] = [];
  for (let at = from.getTime(); at < until.getTime(); at += DAY_MS) days.push(utcDay(new Date(at)));
  return days;
}

function periodDays(now: Date, days: number): string[] {
  const start = periodStart(now, days).getTime();
  return Array.from({ length: days }, (_, index) => utcDay(new Date(start + index * DAY_MS)));
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Answered rows as summaries of their UTC day (of the answer), tool and group. */
export function summariseAnswers(rows: AnsweredRow[]): AnswerSummary[] {
  const summaries = new Map<string, AnswerSummary>();
  for (const row of rows) {
    const day = utcDay(row.answeredAt);
    const key = `${day}\u0000${row.tool}\u0000${row.group}`;
    let summary = summaries.get(key);
    if (!summary) {
      summary = emptySummary(day, row.tool, row.group);
      summaries.set(key, summary);
    }
    addToSummary(summary, Math.max(0, row.answeredAt.getTime() - row.askedAt.getTime()), row.ok);
  }
  return [...summaries.values()];
}

function emptySummary(day: string, tool: string, group: string): AnswerSummary {
  return { day, tool, group, approved: 0, declined: 0, slowestMs: 0, buckets: new Map() };
}

function answerTimes(
  summaries: AnswerSummary[],
  seriesOf: (summary: AnswerSummary) => string,
): AnswerTimePoint[] {
  const merged = new Map<string, AnswerSummary>();
  for (const summary of summaries) {
    const key = `${summary.day}\u0000${seriesOf(summary)}`;
    let into = merged.get(key);
    if (!into) {
      into = emptySummary(summary.day, seriesOf(summary), "");
      merged.set(key, into);
    }
    mergeSummary(into, summary);
  }
  const minutes = (summary: AnswerSummary, p: number) => round1(histogramPercentile(summary, p) / 60_000);
  return [...merged.values()]
    .map((summary) => ({
      day: summary.day,
      series: summary.tool,
      answers: summary.approved + summary.declined,
      p50Minutes: minutes(summary, 0.5),
      p90Minutes: minutes(summary, 0.9),
    }))
    .sort((a, b) => a.day.localeCompare(b.day) || a.series.localeCompare(b.series));
}

/** How many of `times` fell on each day of the period, zeros included. */
function countPerDay(now: Date, days: number, times: Date[]): Map<string, number> {
  const perDay = new Map(periodDays(now, days).map((day) => [day, 0]));
  for (const at of times) {
    const day = utcDay(at);
    if (perDay.has(day)) perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  return perDay;
}

/** Every figure of the page from the rows storage read for one filter set. */
export function computeInsights({
  now,
  days,
  answered,
  expiredAt,
  escalatedAt = [],
  open,
  slowestCount = 10,
}: {
  now: Date;
  days: number;
  /** The period's answers, summarised per day, tool and group (stored or read live). */
  answered: AnswerSummary[];
  expiredAt: Date[];
  escalatedAt?: Date[];
  open: OpenRow[];
  slowestCount?: number;
}): InsightFigures {
  const perDay = countPerDay(now, days, expiredAt);
  const escalated = countPerDay(now, days, escalatedAt);
  const rates = new Map<string, { approved: number; declined: number }>();
  for (const summary of answered) {
    const rate = rates.get(summary.tool) ?? { approved: 0, declined: 0 };
    rate.approved += summary.approved;
    rate.declined += summary.declined;
    rates.set(summary.tool, rate);
  }
  const ageMinutes = (row: OpenRow) => Math.floor((now.getTime() - row.askedAt.getTime()) / 60_000);
  const openByAge = AGE_BUCKETS.map((bucket) => ({ bucket: bucket.label, open: 0 }));
  for (const row of open) {
    const index = AGE_BUCKETS.findIndex((bucket) => ageMinutes(row) < bucket.maxMinutes);
    (openByAge[index] as { open: number }).open += 1;
  }
  return {
    byTool: answerTimes(answered, (summary) => summary.tool),
    byGroup: answerTimes(answered, (summary) => summary.group),
    openByAge,
    expiriesPerDay: [...perDay.entries()].map(([day, expired]) => ({ day, expired })),
    escalationsPerDay: [...escalated.entries()].map(([day, count]) => ({ day, escalated: count })),
    ratesByTool: [...rates.entries()]
      .map(([tool, { approved, declined }]) => ({
        tool,
        answers: approved + declined,
        approved,
        declined,
        approvedShare: round1((approved / (approved + declined)) * 100),
      }))
      .sort((a, b) => a.tool.localeCompare(b.tool)),
    slowestOpen: [...open]
      .sort((a, b) => a.askedAt.getTime() - b.askedAt.getTime())
      .slice(0, slowestCount)
      .map((row) => ({ ...row, ageMinutes: ageMinutes(row) })),
  };
}

/** How a group key reads on the page. */
export function groupLabel(group: string): string {
  if (group === ANY_REVIEWER_GROUP) return "any reviewer";
  if (group === OWNER_GROUP) return "the asker";
  return group;
}
