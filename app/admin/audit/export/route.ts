import { defineRoute } from "@/app/_lib/define-route";
import { auditCsv } from "@/app/admin/_lib/audit-csv";
import { AUDIT_EXPORT_MAX_ROWS, auditQueryFor, parseAuditFilters } from "@/app/admin/_lib/audit-filters";
import { ensureRole } from "@/lib/auth/guards";
import { listAuditAnswers } from "@/lib/db/audit-answers";

export const dynamic = "force-dynamic";

/**
 * GET: the audit as CSV, with the page's filters (all pages, up to AUDIT_EXPORT_MAX_ROWS).
 * Reviewers get their own answers only, admins everyone's, exactly as on the page.
 */
export const GET = defineRoute(async ({ actor, request }, { db }) => {
  ensureRole(actor, "reviewer");
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const filters = { ...parseAuditFilters(params), page: 1 };
  const { rows } = await listAuditAnswers({
    db,
    query: auditQueryFor(actor, filters, AUDIT_EXPORT_MAX_ROWS),
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(auditCsv(rows), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="toolnexus-audit-${day}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
