import { getAppServices } from "@/app/_lib/app-services";
import { AdminPagination } from "@/components/admin/admin-pagination";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { AuditTable } from "@/components/admin/audit-table";
import { requirePageRole } from "@/lib/auth/guards";
import { listAuditAnswers, listAuditPeople, listAuditTools } from "@/lib/db/audit-answers";
import { hasRole } from "@/lib/domain/roles";
import { AUDIT_PAGE_SIZE, auditQueryFor, auditSearch, parseAuditFilters } from "../_lib/audit-filters";
import { AuditFilterForm } from "./audit-filter-form";
import "@/components/admin/admin.css";
import "@/components/inbox/inbox.css";
import "@/components/request-form/request-form.css";

export const metadata = { title: "Audit · toolnexus" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Who answered what and when. Admins see everyone's answers; reviewers their own. */
export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const filters = parseAuditFilters(await searchParams);
  const user = await requirePageRole("reviewer", `/admin/audit${auditSearch(filters)}`);
  const admin = hasRole(user.role, "admin");
  const { db } = await getAppServices();
  const [{ rows, total }, people, tools] = await Promise.all([
    listAuditAnswers({ db, query: auditQueryFor(user, filters) }),
    admin ? listAuditPeople({ db }) : undefined,
    listAuditTools({ db }),
  ]);
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  return (
    <section className="stack" aria-labelledby="audit-title">
      <h1 id="audit-title" className="page-title">
        {admin ? "Admin" : "Your answers"}
      </h1>
      {admin && <AdminTabs current="/admin/audit" />}
      <p className="muted">
        {admin
          ? "Every answer to every request, newest first: who decided, when, how, and what they changed."
          : "Every request you answered, newest first, and how."}
      </p>
      <AuditFilterForm filters={filters} tools={tools} {...(people ? { people } : {})} />
      <div className="inbox-summary">
        <p className="muted" aria-live="polite">
          {total === 1 ? "1 answer" : `${total} answers`}
        </p>
        <a href={`/admin/audit/export${auditSearch(filters, { page: 1 })}`} download>
          Download as CSV
        </a>
      </div>
      <AuditTable rows={rows} />
      <AdminPagination
        page={filters.page}
        pages={pages}
        hrefFor={(page) => `/admin/audit${auditSearch(filters, { page })}`}
      />
    </section>
  );
}
