import { getAppServices } from "@/app/_lib/app-services";
import { AdminPagination } from "@/components/admin/admin-pagination";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { requirePageRole } from "@/lib/auth/guards";
import { listActiveRunsPage } from "@/lib/db/active-runs-page";
import { ADMIN_PAGE_SIZE, pageSearch, parsePage } from "../_lib/admin-filters";
import { AdminRunTable } from "./admin-run-table";
import "@/components/admin/admin.css";

export const metadata = { title: "Runs · Admin · toolnexus" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AdminRunsPage({ searchParams }: { searchParams: SearchParams }) {
  const page = parsePage(await searchParams);
  await requirePageRole("admin", `/admin/runs${pageSearch(page)}`);
  const { db } = await getAppServices();
  const { rows, total } = await listActiveRunsPage({ db, page, pageSize: ADMIN_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));

  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        Admin
      </h1>
      <AdminTabs current="/admin/runs" />
      <p className="muted">
        Runs that are working or waiting for answers, across all users, newest first. Cancelling one ends it
        as its owner's Stop would: its open requests are cancelled and the owner's chat shows it at once.
      </p>
      <p className="muted" aria-live="polite">
        {total === 1 ? "1 active run" : `${total} active runs`}
      </p>
      <AdminRunTable runs={rows} />
      <AdminPagination page={page} pages={pages} hrefFor={(next) => `/admin/runs${pageSearch(next)}`} />
    </section>
  );
}
