import Link from "next/link";
import { getAppServices } from "@/app/_lib/app-services";
import type { InboxItem } from "@/components/inbox/inbox-item";
import { InboxLiveStatus } from "@/components/inbox/inbox-live-status";
import { requirePageUser } from "@/lib/auth/guards";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import { hasRole } from "@/lib/domain/roles";
import { INBOX_PAGE_SIZE, inboxSearch, parseInboxFilters } from "./_lib/inbox-filters";
import { InboxBulk } from "./inbox-bulk";
import { InboxFilterForm } from "./inbox-filter-form";
import "@/components/inbox/inbox.css";

export const metadata = { title: "Inbox · toolnexus" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function InboxPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const filters = parseInboxFilters(params);
  const user = await requirePageUser(`/inbox${inboxSearch(filters)}`);
  const { db, engine } = await getAppServices();
  // Requests past their time are closed before listing, so the inbox never offers a dead one.
  await engine.expireDueRequests();
  // Read before the rows: a change in between then makes the page look older than it is, and
  // the live stream refreshes it once more, where the other order would miss that change.
  const version = await getInboxVersionByViewer({ db, viewer: user });
  // A refused search lists nothing: an unfiltered list under a search box would look like results.
  const { rows, total } = filters.searchError
    ? { rows: [], total: 0 }
    : await listInboxRequests({
        db,
        query: {
          viewer: user,
          status: filters.status,
          sort: filters.sort,
          page: filters.page,
          pageSize: INBOX_PAGE_SIZE,
          ...(filters.kind ? { kind: filters.kind } : {}),
          ...(filters.q ? { search: filters.q } : {}),
        },
      });
  const reviewer = hasRole(user.role, "reviewer");
  const items: InboxItem[] = rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    prompt: row.prompt,
    toolName: row.toolName,
    audience: row.audience,
    status: row.status,
    createdAt: row.createdAt,
    ...(row.expiresAt ? { expiresAt: row.expiresAt } : {}),
    ...(reviewer && row.ownerId !== user.id && row.ownerName ? { ownerName: row.ownerName } : {}),
  }));
  const pages = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));

  return (
    <section className="stack" aria-labelledby="inbox-title">
      <h1 id="inbox-title" className="page-title">
        Inbox
      </h1>
      <p className="muted">
        {reviewer ? "Approvals waiting for a reviewer, and your own requests." : "Requests from your chats."}
      </p>
      <InboxFilterForm filters={filters} />
      <div className="inbox-summary">
        <p className="muted" aria-live="polite">
          {total === 1 ? "1 request" : `${total} requests`}
        </p>
        <InboxLiveStatus version={version} />
      </div>
      {filters.searchError ? (
        <p className="alert alert-error" role="alert">
          {filters.searchError.message}
        </p>
      ) : (
        <InboxBulk items={items} canBulk={reviewer} />
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="inbox-pages">
          {filters.page > 1 && (
            <Link href={`/inbox${inboxSearch(filters, { page: filters.page - 1 })}`}>Previous</Link>
          )}
          <span>
            Page {Math.min(filters.page, pages)} of {pages}
          </span>
          {filters.page < pages && (
            <Link href={`/inbox${inboxSearch(filters, { page: filters.page + 1 })}`}>Next</Link>
          )}
        </nav>
      )}
    </section>
  );
}
