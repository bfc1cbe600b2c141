import { SEARCH_MAX_LENGTH } from "@/app/_lib/search-text";
import { Disclosure } from "@/components/disclosure";
import { KNOWN_REQUEST_KINDS, REQUEST_KINDS, requestKindSpec } from "@/lib/domain/request-kinds";
import { INBOX_SORTS, INBOX_STATUS_LABELS, INBOX_STATUSES, type InboxFilters } from "./_lib/inbox-filters";

const SORT_LABELS = { newest: "Newest first", oldest: "Oldest first", expiry: "Expiring soonest" } as const;

/** The filters in force, in words: what the folded filters' button says on a phone. */
export function activeFilterWords(filters: InboxFilters): string {
  const words = [
    ...(filters.kind ? [requestKindSpec(filters.kind).label] : []),
    INBOX_STATUS_LABELS[filters.status],
    SORT_LABELS[filters.sort],
    ...(filters.q ? [`“${filters.q}”`] : []),
  ];
  return words.join(" · ");
}

/**
 * A plain GET form: filters land in the URL, so a view can be reloaded, shared and bookmarked.
 * On a phone it folds behind one button that names the filters in force (see inbox.css).
 */
export function InboxFilterForm({ filters }: { filters: InboxFilters }) {
  return (
    <Disclosure
      label={
        // One inline run of text, so the button's name reads "Filters: Open · Newest first".
        <span className="inbox-filters-label">
          Filters: <span className="inbox-filters-active">{activeFilterWords(filters)}</span>
        </span>
      }
      initiallyOpen={Boolean(filters.searchError)}
      className="inbox-filters-panel"
      toggleClassName="inbox-filters-toggle"
    >
      <FilterFields filters={filters} />
    </Disclosure>
  );
}

function FilterFields({ filters }: { filters: InboxFilters }) {
  return (
    <form method="get" action="/inbox" className="inbox-filters" aria-label="Filter requests">
      <label>
        Kind
        <select name="kind" defaultValue={filters.kind ?? ""}>
          <option value="">Any kind</option>
          {KNOWN_REQUEST_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {REQUEST_KINDS[kind].label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select name="status" defaultValue={filters.status}>
          {INBOX_STATUSES.map((status) => (
            <option key={status} value={status}>
              {INBOX_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Sort
        <select name="sort" defaultValue={filters.sort}>
          {INBOX_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Search prompts
        <input
          type="search"
          name="q"
          defaultValue={filters.q ?? filters.searchError?.text ?? ""}
          maxLength={SEARCH_MAX_LENGTH}
          aria-invalid={filters.searchError ? true : undefined}
        />
      </label>
      <button type="submit" className="button button-secondary">
        Apply
      </button>
    </form>
  );
}
