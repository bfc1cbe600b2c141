import { OutcomeBadge } from "@/components/outcome-badge";
import type { AuditRow } from "@/lib/domain/audit";
import { formatUtc } from "./format-utc";

function show(value: unknown): string {
  return value === undefined ? "(none)" : JSON.stringify(value);
}

/** The audit: one row per answer, with what was asked and, for an edited approval, the change. */
export function AuditTable({ rows }: { rows: AuditRow[] }) {
  if (rows.length === 0) return <p className="muted">No answers match these filters.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-label="Answers">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Request</th>
            <th scope="col">Outcome</th>
            <th scope="col">Arguments</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.answerId}>
              <td>
                <time dateTime={row.answeredAt}>{formatUtc(row.answeredAt)}</time>
              </td>
              <td>{row.actor?.name ?? "the system"}</td>
              <td>
                <span className="badge">{row.kind}</span> <code>{row.toolName}</code>
                <div>{row.prompt}</div>
              </td>
              <td>
                <OutcomeBadge outcome={row.outcome} />
                {row.reason && <div>Reason: {row.reason}</div>}
              </td>
              <td>
                <details>
                  <summary>{row.changes.length > 0 ? "Arguments before the changes" : "Arguments"}</summary>
                  <pre className="tn-json">{JSON.stringify(row.argumentsAsked, null, 2)}</pre>
                </details>
                {row.changes.length > 0 && (
                  <ul className="audit-changes" aria-label="Changed before approving">
                    {row.changes.map((change) => (
                      <li key={change.key}>
                        <code>{change.key}</code>: <del>{show(change.before)}</del> →{" "}
                        <ins>{show(change.after)}</ins>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
