import type { AuditRow } from "@/lib/domain/audit";

const HEADER = [
  "answered_at",
  "answered_by",
  "outcome",
  "tool",
  "kind",
  "prompt",
  "reason",
  "arguments_asked",
  "arguments_changed",
  "request_id",
];

// A spreadsheet runs a cell that starts with one of these as a formula ("=HYPERLINK(…)" in a
// prompt the agent wrote, or a reason someone typed): such a cell gets a leading apostrophe,
// which spreadsheets show as text and nothing else reads into.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: never a formula, always quoted, quotes doubled (RFC 4180). */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

function changesText(row: AuditRow): string {
  return row.changes
    .map(
      (change) =>
        `${change.key}: ${JSON.stringify(change.before) ?? "(none)"} -> ${JSON.stringify(change.after) ?? "(none)"}`,
    )
    .join("; ");
}

/** The audit rows as CSV text, with a header line; CRLF line ends as RFC 4180 has them. */
export function auditCsv(rows: AuditRow[]): string {
  const lines = [HEADER.map(csvField).join(",")];
  for (const row of rows) {
    lines.push(
      [
        row.answeredAt,
        row.actor?.name ?? "system",
        row.outcome,
        row.toolName,
        row.kind,
        row.prompt,
        row.reason ?? "",
        JSON.stringify(row.argumentsAsked),
        changesText(row),
        row.requestId,
      ]
        .map(csvField)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
