import { FilterSelect } from "@/components/filter-select";
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
  const changes = filters.view === "changes";
  return (
    <>
      <form
        method="get"
        action="/admin/audit"
        className="inbox-filters"
        aria-label={changes ? "Filter setting changes" : "Filter answers"}
      >
        {changes ? (
          <ChangeSelects filters={filters} />
        ) : (
          <AnswerSelects filters={filters} people={people} tools={tools} />
        )}
        <DateFields filters={filters} />
        <button type="submit" className="button button-secondary">
          Apply
        </button>
      </form>
      <DateShortcuts filters={filters} />
    </>
  );
}

/** The setting changes' view: which kind of change; `view` rides along so Apply stays on it. */
function ChangeSelects({ filters }: { filters: AuditFilters }) {
  return (
    <>
      <input type="hidden" name="view" value="changes" />
      <FilterSelect
        label="Change"
        name="change"
        value={filters.change}
        anyLabel="Any setting"
        options={SETTING_CHANGE_KINDS.map((kind) => ({ value: kind, label: SETTING_CHANGE_LABEL[kind] }))}
      />
    </>
  );
}

function AnswerSelects({
  filters,
  people,
  tools,
}: {
  filters: AuditFilters;
  people?: { id: string; name: string }[];
  tools: string[];
}) {
  return (
    <>
      {people && (
        <FilterSelect
          label="Person"
          name="person"
          value={filters.person}
          anyLabel="Anyone"
          options={people.map((person) => ({ value: person.id, label: person.name }))}
        />
      )}
      <FilterSelect
        label="Tool"
        name="tool"
        value={filters.tool}
        anyLabel="Any tool"
        options={tools.map((tool) => ({ value: tool, label: tool }))}
      />
      <FilterSelect
        label="Outcome"
        name="outcome"
        value={filters.outcome}
        anyLabel="Any outcome"
        options={AUDIT_OUTCOMES.map((outcome) => ({ value: outcome, label: OUTCOME_LABEL[outcome] }))}
      />
    </>
  );
}
