import { SEARCH_MAX_LENGTH } from "@/app/_lib/search-text";
import { Disclosure } from "@/components/disclosure";
import { FilterSelect } from "@/components/filter-select";
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
      <FilterSelect
        label="Kind"
        name="kind"
        value={filters.kind}
        anyLabel="Any kind"
        options={KNOWN_REQUEST_KINDS.map((kind) => ({ value: kind, label: REQUEST_KINDS[kind].label }))}
      />
      <FilterSelect
        label="Status"
        name="status"
        value={filters.status}
        options={INBOX_STATUSES.map((status) => ({ value: status, label: INBOX_STATUS_LABELS[status] }))}
      />
      <FilterSelect
        label="Sort"
        name="sort"
        value={filters.sort}
        options={INBOX_SORTS.map((sort) => ({ value: sort, label: SORT_LABELS[sort] }))}
      />
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
