import {
  describeSettingChange,
  SETTING_CHANGE_LABEL,
  type SettingChangeRow,
  settingChangeSubject,
} from "@/lib/domain/setting-changes";
import { formatUtc } from "./format-utc";

/** Admins' changes to policies, rules, groups and built-ins: who changed what, when, how. */
export function SettingChangeTable({ rows }: { rows: SettingChangeRow[] }) {
  if (rows.length === 0) return <p className="muted">No setting changes match these filters.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table admin-table-stack" aria-label="Setting changes">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Setting</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td data-label="When">
                <time dateTime={row.at}>{formatUtc(row.at)}</time>
              </td>
              <td data-label="Who">{row.actor?.name ?? "the system"}</td>
              <td data-label="Setting">
                <span className="badge">{SETTING_CHANGE_LABEL[row.kind]}</span>{" "}
                <code>{settingChangeSubject(row)}</code>
              </td>
              <td data-label="Change">{describeSettingChange(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
