import { z } from "zod";
import { readSearchText } from "@/app/_lib/search-text";

export const ADMIN_PAGE_SIZE = 20;

export interface UserFilters {
  q: string | undefined;
  page: number;
  /** Set when the search in the URL was refused: the page shows this instead of any list. */
  searchError?: { text: string; message: string };
}

type Params = Record<string, string | string[] | undefined>;

const pageField = z.coerce.number().int().min(1).max(10_000);

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The page number in the URL; anything else (a hand-edited URL) means the first page. */
export function parsePage(params: Params): number {
  const parsed = pageField.safeParse(first(params.page));
  return parsed.success ? parsed.data : 1;
}

/** The users list's search and page, read from the URL so a view can be reloaded and shared. */
export function parseUserFilters(params: Params): UserFilters {
  const search = readSearchText(params.q);
  return {
    q: search.status === "valid" ? search.text : undefined,
    page: parsePage(params),
    ...(search.status === "refused" ? { searchError: { text: search.text, message: search.message } } : {}),
  };
}

/** The query string for a filter set, leaving defaults out so URLs stay short. */
export function userSearch(filters: UserFilters, change: Partial<UserFilters> = {}): string {
  const merged = { ...filters, ...change };
  const params = new URLSearchParams();
  if (merged.q) params.set("q", merged.q);
  if (merged.page !== 1) params.set("page", String(merged.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function pageSearch(page: number): string {
  return page === 1 ? "" : `?page=${page}`;
}
