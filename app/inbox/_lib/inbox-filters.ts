import { z } from "zod";
import { readSearchText } from "@/app/_lib/search-text";

export const INBOX_STATUSES = ["open", "answered", "expired", "cancelled"] as const;
export const INBOX_SORTS = ["newest", "oldest", "expiry"] as const;
export const INBOX_PAGE_SIZE = 20;

export type InboxStatus = (typeof INBOX_STATUSES)[number];
export type InboxSort = (typeof INBOX_SORTS)[number];

export interface InboxFilters {
  kind: string | undefined;
  status: InboxStatus;
  sort: InboxSort;
  q: string | undefined;
  page: number;
  /** Set when the search in the URL was refused: the page shows this instead of any list. */
  searchError?: { text: string; message: string };
}

const defaults: InboxFilters = { kind: undefined, status: "open", sort: "newest", q: undefined, page: 1 };

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// Each field is read on its own so one bad value (a hand-edited URL) falls back to its default
// instead of throwing away the viewer's other filters.
const fields = {
  kind: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/),
  status: z.enum(INBOX_STATUSES),
  sort: z.enum(INBOX_SORTS),
  page: z.coerce.number().int().min(1).max(10_000),
};

/** The view a reviewer lands on: open requests of any kind, unsearched, from the first page. */
export function isDefaultView(filters: InboxFilters): boolean {
  return (
    filters.status === "open" && !filters.kind && !filters.q && !filters.searchError && filters.page === 1
  );
}

/** What the status filter reads as, in the app's words for outcomes. */
export const INBOX_STATUS_LABELS: Record<InboxStatus, string> = {
  open: "Open",
  answered: "Approved, declined or answered",
  expired: "Expired",
  cancelled: "Cancelled",
};

/** Reads the inbox's filters out of the URL, where they live so views can be shared and reloaded. */
export function parseInboxFilters(params: Record<string, string | string[] | undefined>): InboxFilters {
  const read = <K extends keyof typeof fields>(key: K): z.infer<(typeof fields)[K]> | undefined => {
    const parsed = fields[key].safeParse(first(params[key]));
    return parsed.success ? (parsed.data as z.infer<(typeof fields)[K]>) : undefined;
  };
  const search = readSearchText(params.q);
  return {
    kind: read("kind") ?? defaults.kind,
    status: read("status") ?? defaults.status,
    sort: read("sort") ?? defaults.sort,
    q: search.status === "valid" ? search.text : defaults.q,
    page: read("page") ?? defaults.page,
    ...(search.status === "refused" ? { searchError: { text: search.text, message: search.message } } : {}),
  };
}

/** The query string for a filter set, leaving defaults out so URLs stay short. */
export function inboxSearch(filters: InboxFilters, change: Partial<InboxFilters> = {}): string {
  const merged = { ...filters, ...change };
  const params = new URLSearchParams();
  if (merged.kind) params.set("kind", merged.kind);
  if (merged.status !== defaults.status) params.set("status", merged.status);
  if (merged.sort !== defaults.sort) params.set("sort", merged.sort);
  if (merged.q) params.set("q", merged.q);
  if (merged.page !== 1) params.set("page", String(merged.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

// Request row ids are cuids, or `req_…` for requests made through the API; anything else in
// `selected` selects nothing.
const selectedId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** The request the split view shows beside the list (`?selected=<id>`), if the URL names one. */
export function readSelectedId(params: Record<string, string | string[] | undefined>): string | undefined {
  const parsed = selectedId.safeParse(first(params.selected));
  return parsed.success ? parsed.data : undefined;
}

/** The inbox URL with these filters and, when given, one request selected. */
export function inboxHref(filters: InboxFilters, selected?: string): string {
  const search = inboxSearch(filters);
  if (!selected) return `/inbox${search}`;
  return `/inbox${search}${search ? "&" : "?"}selected=${encodeURIComponent(selected)}`;
}
