import { AUDIT_OUTCOMES } from "@/lib/domain/audit";
import { OUTCOME_LABEL } from "@/lib/domain/outcome";
import { SETTING_CHANGE_KINDS, SETTING_CHANGE_LABEL } from "@/lib/domain/setting-changes";
import { type AuditFilters, auditDateShortcuts, auditSearch } from "../_lib/audit-filters";

function DateFields({ filters }: { filters: AuditFilters }) {
  return (
    <>
      <label>
        From
        <input type="date" name="from" defaultValue={filters.from ?? ""} />
      </label>
      <label>
        To
        <input type="date" name="to" defaultValue={filters.to ?? ""} />
      </label>
    </>
  );
}

/** Today, yesterday and the last 7 days in one click; the rest of the filters stay as they are. */
function DateShortcuts({ filters }: { filters: AuditFilters }) {
  return (
    <nav aria-label="Date shortcuts">
      <ul className="admin-filter-links audit-date-shortcuts">
        {auditDateShortcuts(new Date()).map((shortcut) => {
          const current = filters.from === shortcut.from && filters.to === shortcut.to;
          return (
            <li key={shortcut.label}>
              <a
                href={`/admin/audit${auditSearch(filters, { from: shortcut.from, to: shortcut.to, page: 1 })}`}
                {...(current ? { "aria-current": "page" as const } : {})}
              >
                {shortcut.label}
              </a>
            </li>
          );
        })}
        {(filters.from || filters.to) && (
          <li>
            <a href={`/admin/audit${auditSearch(filters, { from: undefined, to: undefined, page: 1 })}`}>
              Any date
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}

/** A plain GET form: the filters land in the URL, so a view can be reloaded, shared, exported. */
export function AuditFilterForm({
  filters,
  people,
  tools,
}: {
  filters: AuditFilters;
  /** Whom an admin may pick; absent for everyone else, who only ever see their own answers. */
  people?: { id: string; name: string }[];
  tools: string[];
}) {
  if (filters.view === "changes")
    return (
      <>
        <form
          method="get"
          action="/admin/audit"
          className="inbox-filters"
          aria-label="Filter setting changes"
        >
          <input type="hidden" name="view" value="changes" />
          <label>
            Change
            <select name="change" defaultValue={filters.change ?? ""}>
              <option value="">Any setting</option>
              {SETTING_CHANGE_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {SETTING_CHANGE_LABEL[kind]}
                </option>
              ))}
            </select>
          </label>
          <DateFields filters={filters} />
          <button type="submit" className="button button-secondary">
            Apply
          </button>
        </form>
        <DateShortcuts filters={filters} />
      </>
    );
  return (
    <>
      <form method="get" action="/admin/audit" className="inbox-filters" aria-label="Filter answers">
        {people && (
          <label>
            Person
            <select name="person" defaultValue={filters.person ?? ""}>
              <option value="">Anyone</option>
              {people.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Tool
          <select name="tool" defaultValue={filters.tool ?? ""}>
            <option value="">Any tool</option>
            {tools.map((tool) => (
              <option key={tool} value={tool}>
                {tool}
              </option>
            ))}
          </select>
        </label>
        <label>
          Outcome
          <select name="outcome" defaultValue={filters.outcome ?? ""}>
            <option value="">Any outcome</option>
            {AUDIT_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {OUTCOME_LABEL[outcome]}
              </option>
            ))}
          </select>
        </label>
        <DateFields filters={filters} />
        <button type="submit" className="button button-secondary">
          Apply
        </button>
      </form>
      <DateShortcuts filters={filters} />
    </>
  );
}
