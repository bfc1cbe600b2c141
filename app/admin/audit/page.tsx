import { getAppServices } from "@/app/_lib/app-services";
import { AdminPagination } from "@/components/admin/admin-pagination";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { AuditTable } from "@/components/admin/audit-table";
import { SettingChangeTable } from "@/components/admin/setting-change-table";
import { requirePageRole } from "@/lib/auth/guards";
import { listAuditAnswers, listAuditPeople, listAuditTools } from "@/lib/db/audit-answers";
import { listSettingChanges } from "@/lib/db/audit-setting-changes";
import type { DbClient } from "@/lib/db/db-types";
import { hasRole } from "@/lib/domain/roles";
import {
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  auditQueryFor,
  auditSearch,
  parseAuditFilters,
  settingChangeQueryFor,
} from "../_lib/audit-filters";
import { AuditFilterForm } from "./audit-filter-form";
import "@/components/admin/admin.css";
import "@/components/inbox/inbox.css";
import "@/components/request-form/request-form.css";

export const metadata = { title: "Audit · toolnexus" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Answers or setting changes, as two links; the current one reads as text. */
function ViewLinks({ filters }: { filters: AuditFilters }) {
  const views = [
    ["answers", "Answers"],
    ["changes", "Setting changes"],
  ] as const;
  return (
    <nav aria-label="What the audit lists">
      <ul className="admin-filter-links">
        {views.map(([view, label]) => (
          <li key={view}>
            <a
              href={`/admin/audit${auditSearch(filters, { view, page: 1 })}`}
              {...(filters.view === view ? { "aria-current": "page" as const } : {})}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

async function SettingChanges({ db, filters }: { db: DbClient; filters: AuditFilters }) {
  const { rows, total } = await listSettingChanges({ db, query: settingChangeQueryFor(filters) });
  return (
    <>
      <AuditFilterForm filters={filters} tools={[]} />
      <p className="muted" aria-live="polite">
        {total === 1 ? "1 change" : `${total} changes`}
      </p>
      <SettingChangeTable rows={rows} />
      <AdminPagination
        page={filters.page}
        pages={Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE))}
        hrefFor={(page) => `/admin/audit${auditSearch(filters, { page })}`}
      />
    </>
  );
}

/**
 * Who answered what and when; for admins also who changed how requests are decided (policies,
 * rules, groups, built-ins, absences). Admins see everyone's answers; reviewers their own.
 */
export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const parsed = parseAuditFilters(await searchParams);
  const user = await requirePageRole("reviewer", `/admin/audit${auditSearch(parsed)}`);
  const admin = hasRole(user.role, "admin");
  // Setting changes are for admins; anyone else keeps their own answers.
  const filters: AuditFilters = admin ? parsed : { ...parsed, view: "answers" };
  const { db } = await getAppServices();
  const title = (
    <>
      <h1 id="audit-title" className="page-title">
        {admin ? "Admin" : "Your answers"}
      </h1>
      {admin && <AdminTabs current="/admin/audit" />}
      {admin && <ViewLinks filters={filters} />}
    </>
  );
  if (filters.view === "changes")
    return (
      <section className="stack" aria-labelledby="audit-title">
        {title}
        <p className="muted">
          Every change to tool policies, tool rules, approver groups, built-in tools and absences, newest
          first: who changed what, when, and from what to what.
        </p>
        <SettingChanges db={db} filters={filters} />
      </section>
    );
  const [{ rows, total }, people, tools] = await Promise.all([
    listAuditAnswers({ db, query: auditQueryFor(user, filters) }),
    admin ? listAuditPeople({ db }) : undefined,
    listAuditTools({ db }),
  ]);
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  return (
    <section className="stack" aria-labelledby="audit-title">
      {title}
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
