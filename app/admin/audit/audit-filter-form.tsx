import { AUDIT_OUTCOMES } from "@/lib/domain/audit";
import { OUTCOME_LABEL } from "@/lib/domain/outcome";
import type { AuditFilters } from "../_lib/audit-filters";

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
  return (
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
      <label>
        From
        <input type="date" name="from" defaultValue={filters.from ?? ""} />
      </label>
      <label>
        To
        <input type="date" name="to" defaultValue={filters.to ?? ""} />
      </label>
      <button type="submit" className="button button-secondary">
        Apply
      </button>
    </form>
  );
}
