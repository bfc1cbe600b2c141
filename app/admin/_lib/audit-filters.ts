import { z } from "zod";
import type { AuditQuery } from "@/lib/db/audit-answers";
import { AUDIT_OUTCOMES, type AuditOutcome } from "@/lib/domain/audit";
import type { Actor } from "@/lib/domain/roles";

export const AUDIT_PAGE_SIZE = 25;
/** The most rows one CSV export carries; narrow the filters for more. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

export interface AuditFilters {
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
  for (const key of ["person", "tool", "outcome", "from", "to"] as const) {
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
