import { getAppServices } from "@/app/_lib/app-services";
import { SEARCH_MAX_LENGTH } from "@/app/_lib/search-text";
import { AdminPagination } from "@/components/admin/admin-pagination";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { requirePageRole } from "@/lib/auth/guards";
import { countAdmins } from "@/lib/db/user-roles";
import { listUsersPage } from "@/lib/db/users-page";
import { ADMIN_PAGE_SIZE, parseUserFilters, userSearch } from "../_lib/admin-filters";
import { AbsencesSection } from "./absences-section";
import { AdminUserTable } from "./admin-user-table";
import "@/components/admin/admin.css";

export const metadata = { title: "Users · Admin · toolnexus" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AdminUsersPage({ searchParams }: { searchParams: SearchParams }) {
  const filters = parseUserFilters(await searchParams);
  const admin = await requirePageRole("admin", `/admin/users${userSearch(filters)}`);
  const { db } = await getAppServices();
  const [{ rows, total }, admins] = await Promise.all([
    filters.searchError
      ? { rows: [], total: 0 }
      : listUsersPage({
          db,
          page: filters.page,
          pageSize: ADMIN_PAGE_SIZE,
          ...(filters.q ? { search: filters.q } : {}),
        }),
    countAdmins({ db }),
  ]);
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));

  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        Admin
      </h1>
      <AdminTabs current="/admin/users" />
      <p className="muted">
        A new role applies on that person's next page or action; they stay signed in. Sign out everywhere ends
        all of their sessions at once. Nobody can change their own role, and the last admin cannot be demoted
        ({admins === 1 ? "1 admin" : `${admins} admins`} now).
      </p>
      <form method="get" action="/admin/users" className="admin-search" aria-label="Search users">
        <label>
          Search name or email
          <input
            type="search"
            name="q"
            defaultValue={filters.q ?? filters.searchError?.text ?? ""}
            maxLength={SEARCH_MAX_LENGTH}
            aria-invalid={filters.searchError ? true : undefined}
          />
        </label>
        <button type="submit" className="button button-secondary">
          Search
        </button>
      </form>
      <p className="muted" aria-live="polite">
        {total === 1 ? "1 user" : `${total} users`}
      </p>
      {filters.searchError ? (
        <p className="alert alert-error" role="alert">
          {filters.searchError.message}
        </p>
      ) : (
        <AdminUserTable users={rows} viewerId={admin.id} />
      )}
      <AdminPagination
        page={filters.page}
        pages={pages}
        hrefFor={(page) => `/admin/users${userSearch(filters, { page })}`}
      />
      <AbsencesSection db={db} />
    </section>
  );
}
