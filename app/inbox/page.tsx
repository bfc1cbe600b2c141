import Link from "next/link";
import { getAppServices } from "@/app/_lib/app-services";
import type { InboxItem } from "@/components/inbox/inbox-item";
import { InboxLiveStatus } from "@/components/inbox/inbox-live-status";
import { InboxShortcuts } from "@/components/inbox/inbox-shortcuts";
import { requirePageUser } from "@/lib/auth/guards";
import { listHeldDeciders } from "@/lib/db/held-decisions";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import { listTakesByRequestIds } from "@/lib/db/request-takes";
import { requestHeadline } from "@/lib/domain/request-headline";
import { describeOrigin } from "@/lib/domain/request-origin";
import { hasRole } from "@/lib/domain/roles";
import {
  INBOX_PAGE_SIZE,
  inboxHref,
  isDefaultView,
  parseInboxFilters,
  readSelectedId,
} from "./_lib/inbox-filters";
import { InboxBulk } from "./inbox-bulk";
import { InboxDetail } from "./inbox-detail";
import { InboxFilterForm } from "./inbox-filter-form";
import "@/components/chat/chat.css";
import "@/components/inbox/inbox.css";
import "@/components/inbox/inbox-phone.css";
import "@/components/request-form/request-form.css";

export const metadata = { title: "Inbox · toolnexus" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function InboxPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const filters = parseInboxFilters(params);
  const selected = readSelectedId(params);
  const user = await requirePageUser(inboxHref(filters, selected));
  const { db, engine } = await getAppServices();
  // Requests past their time are closed before listing, so the inbox never offers a dead one.
  await engine.expireDueRequests();
  // And decisions past their Undo window are committed, whether or not a sweep got there first.
  await engine.commitDueDecisions();
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
  const takes = reviewer
    ? await listTakesByRequestIds({
        db,
        ids: rows.filter((row) => row.audience === "reviewers" && row.status === "open").map((row) => row.id),
        now: new Date(),
      })
    : new Map<string, never>();
  // Decisions in their Undo window: the viewer's own are decided as far as their list goes;
  // others' show as "Rita is deciding…" on the take the decision holds.
  const deciders = await listHeldDeciders({
    db,
    requestIds: rows.filter((row) => row.status === "open").map((row) => row.id),
  });
  const takeOf = (id: string) => {
    const held = takes.get(id);
    return held
      ? {
          take: {
            takerName: held.takerName,
            until: held.until,
            mine: held.takerId === user.id,
            ...(deciders.get(id) === held.takerId ? { deciding: true } : {}),
          },
        }
      : {};
  };
  const items: InboxItem[] = rows
    .filter((row) => deciders.get(row.id) !== user.id)
    .map((row) => ({
      id: row.id,
      kind: row.kind,
      prompt: row.prompt,
      toolName: row.toolName,
      audience: row.audience,
      status: row.status,
      createdAt: row.createdAt,
      href: inboxHref(filters, row.id),
      ...(row.outcome ? { outcome: row.outcome } : {}),
      ...(row.tally ? { tally: row.tally } : {}),
      ...(row.escalation ? { escalation: row.escalation } : {}),
      ...(row.coveringFor ? { coveringFor: row.coveringFor } : {}),
      ...(row.expiresAt ? { expiresAt: row.expiresAt } : {}),
      ...headlineOf(row.args),
      ...(row.ownerId !== user.id || row.origin.via === "api"
        ? { askedBy: describeOrigin(row.origin, row.ownerId === user.id) }
        : {}),
      ...takeOf(row.id),
    }));
  const pages = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));

  return (
    <section
      className={`stack inbox-page${selected ? " inbox-has-selection" : ""}`}
      aria-labelledby="inbox-title"
    >
      <h1 id="inbox-title" className="page-title">
        Inbox
      </h1>
      <InboxShortcuts />
      <div className="inbox-split">
        <div className="inbox-pane inbox-pane-list stack">
          <p className="muted">
            {reviewer
              ? "Approvals waiting for a reviewer, and your own requests."
              : "Requests from your chats."}
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
            <InboxBulk
              items={items}
              canBulk={reviewer}
              defaultView={isDefaultView(filters)}
              {...(selected ? { selectedId: selected } : {})}
            />
          )}
          {pages > 1 && (
            <nav aria-label="Pages" className="inbox-pages">
              {filters.page > 1 && (
                <Link href={inboxHref({ ...filters, page: filters.page - 1 }, selected)}>Previous</Link>
              )}
              <span>
                Page {Math.min(filters.page, pages)} of {pages}
              </span>
              {filters.page < pages && (
                <Link href={inboxHref({ ...filters, page: filters.page + 1 }, selected)}>Next</Link>
              )}
            </nav>
          )}
        </div>
        <section className="inbox-pane inbox-pane-detail" aria-label="Selected request">
          {selected ? (
            <InboxDetail
              selected={selected}
              user={user}
              listHref={inboxHref(filters)}
              services={{ db, engine }}
            />
          ) : (
            <p className="muted inbox-detail-empty">Select a request to see it here.</p>
          )}
        </section>
      </div>
    </section>
  );
}

function headlineOf(args: unknown): { headline?: string } {
  const headline = requestHeadline(args);
  return headline ? { headline } : {};
}
