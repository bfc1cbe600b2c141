import { z } from "zod";
import type { AuditQuery } from "@/lib/db/audit-answers";
import type { SettingChangeQuery } from "@/lib/db/audit-setting-changes";
import { AUDIT_OUTCOMES, type AuditOutcome } from "@/lib/domain/audit";
import type { Actor } from "@/lib/domain/roles";
import { SETTING_CHANGE_KINDS, type SettingChangeKind } from "@/lib/domain/setting-changes";

export const AUDIT_PAGE_SIZE = 25;
/** The most rows one CSV export carries; narrow the filters for more. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

export const AUDIT_VIEWS = ["answers", "changes"] as const;

export type AuditView = (typeof AUDIT_VIEWS)[number];

export interface AuditFilters {
  /** Answers to requests, or admins' changes to policies, rules, groups and built-ins. */
  view: AuditView;
  /** Which setting changes, in the changes view. */
  change: SettingChangeKind | undefined;
  person: string | undefined;
  tool: string | undefined;
  outcome: AuditOutcome | undefined;
  /** YYYY-MM-DD, UTC, inclusive. */
  from: string | undefined;
  to: string | undefined;
  page: number;
}

type Params = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)));

// Each field on its own, so one bad value (a hand-edited URL) falls back to "any" instead of
// throwing away the rest.
const fields = {
  view: z.enum(AUDIT_VIEWS),
  change: z.enum(SETTING_CHANGE_KINDS),
  person: z.string().regex(/^[\w-]{1,64}$/),
  tool: z.string().regex(/^[\w.:-]{1,128}$/),
  outcome: z.enum(AUDIT_OUTCOMES),
  from: day,
  to: day,
  page: z.coerce.number().int().min(1).max(10_000),
};

export function parseAuditFilters(params: Params): AuditFilters {
  const read = <K extends keyof typeof fields>(key: K): z.infer<(typeof fields)[K]> | undefined => {
    const parsed = fields[key].safeParse(first(params[key]));
    return parsed.success ? (parsed.data as z.infer<(typeof fields)[K]>) : undefined;
  };
  return {
    view: read("view") ?? "answers",
    change: read("change"),
    person: read("person"),
    tool: read("tool"),
    outcome: read("outcome"),
    from: read("from"),
    to: read("to"),
    page: read("page") ?? 1,
  };
}

/** The query string for a filter set, leaving "any" out so URLs stay short. */
export function auditSearch(filters: AuditFilters, change: Partial<AuditFilters> = {}): string {
  const merged = { ...filters, ...change };
  const params = new URLSearchParams();
  if (merged.view !== "answers") params.set("view", merged.view);
  // Each view keeps only the filters it has, so switching views never carries a hidden one.
  const keys =
    merged.view === "changes"
      ? (["change", "from", "to"] as const)
      : (["person", "tool", "outcome", "from", "to"] as const);
  for (const key of keys) {
    const value = merged[key];
    if (value) params.set(key, value);
  }
  if (merged.page !== 1) params.set("page", String(merged.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The database query for `viewer`: admins see everyone's answers, anyone else only their own,
 * whatever person the URL names. Dates are whole UTC days, `to` included.
 */
export function auditQueryFor(viewer: Actor, filters: AuditFilters, pageSize = AUDIT_PAGE_SIZE): AuditQuery {
  const person = viewer.role === "admin" ? filters.person : viewer.id;
  const before = filters.to ? new Date(Date.parse(`${filters.to}T00:00:00Z`) + 86_400_000) : undefined;
  return {
    ...(person ? { actorId: person } : {}),
    ...(filters.tool ? { toolName: filters.tool } : {}),
    ...(filters.outcome ? { outcome: filters.outcome } : {}),
    ...(filters.from ? { from: new Date(`${filters.from}T00:00:00Z`) } : {}),
    ...(before ? { before } : {}),
    page: filters.page,
    pageSize,
  };
}

/** The changes view's query: admins only (the page checks), whole UTC days as for answers. */
export function settingChangeQueryFor(filters: AuditFilters, pageSize = AUDIT_PAGE_SIZE): SettingChangeQuery {
  const before = filters.to ? new Date(Date.parse(`${filters.to}T00:00:00Z`) + 86_400_000) : undefined;
  return {
    ...(filters.change ? { kind: filters.change } : {}),
    ...(filters.from ? { from: new Date(`${filters.from}T00:00:00Z`) } : {}),
    ...(before ? { before } : {}),
    page: filters.page,
    pageSize,
  };
}

const DAY_MS = 86_400_000;

function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The date shortcuts beside the filter, as from/to days (UTC, like the date fields). */
export function auditDateShortcuts(now: Date): { label: string; from: string; to: string }[] {
  const today = now.getTime();
  return [
    { label: "Today", from: dayOf(today), to: dayOf(today) },
    { label: "Yesterday", from: dayOf(today - DAY_MS), to: dayOf(today - DAY_MS) },
    { label: "Last 7 days", from: dayOf(today - 6 * DAY_MS), to: dayOf(today) },
  ];
}
