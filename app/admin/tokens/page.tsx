import { AdminPagination } from "@/components/admin/admin-pagination";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { requirePageRole } from "@/lib/auth/guards";
import { listApiTokensPage } from "@/lib/db/api-tokens";
import { getDb } from "@/lib/db/sql/client";
import { TokenList } from "../../settings/tokens/token-list";
import { revokeAnyTokenAction } from "./actions";
import "@/components/admin/admin.css";

export const metadata = { title: "API tokens · Admin · toolnexus" };

const PAGE_SIZE = 50;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AdminTokensPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const page = Math.max(1, Math.min(10_000, Number.parseInt(String(params.page ?? "1"), 10) || 1));
  await requirePageRole("admin", `/admin/tokens${page > 1 ? `?page=${page}` : ""}`);
  const { rows, total } = await listApiTokensPage({
    db: getDb(),
    includeRevoked: true,
    page,
    pageSize: PAGE_SIZE,
  });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        Admin
      </h1>
      <AdminTabs current="/admin/tokens" />
      <p className="muted">
        Everyone's API tokens, newest first. Revoking one refuses its next call; its owner sees it revoked.
      </p>
      <TokenList tokens={rows} revoke={revokeAnyTokenAction} showOwner now={Date.now()} />
      <AdminPagination page={page} pages={pages} hrefFor={(p) => `/admin/tokens?page=${p}`} />
    </section>
  );
}
