import Link from "next/link";
import type { InsightChart, InsightTable } from "@/lib/domain/insights";

/**
 * One chart with its figures as a table and a CSV download beside it. The SVG is decorative
 * for assistive technology (its figure names it); the table carries the numbers.
 */
export function InsightPanel({
  chart,
  table,
  svg,
  csvHref,
  note,
}: {
  chart: InsightChart;
  table: InsightTable;
  svg: string | undefined;
  csvHref: string;
  note?: string;
}) {
  const titleId = `insight-${chart}`;
  return (
    <section className="insight-panel stack" aria-labelledby={titleId} data-chart={chart}>
      <h2 id={titleId}>{table.title}</h2>
      {note && <p className="muted">{note}</p>}
      {svg && (
        <div
          className="insight-chart"
          role="img"
          aria-label={`${table.title}, chart`}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG that Observable Plot built on the server from our own figures (text escaped by the DOM)
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      )}
      {table.rows.length === 0 ? (
        <p className="muted">Nothing in this period.</p>
      ) : (
        <details open={!svg}>
          <summary>Data table</summary>
          {/* Focusable, so a keyboard can scroll a table wider than a phone. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable */}
          <section className="admin-table-wrap" tabIndex={0} aria-label={`${table.title}, data table`}>
            <table className="admin-table">
              <caption className="visually-hidden">{table.title}</caption>
              <thead>
                <tr>
                  {table.columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row) => (
                  <tr key={row.join("\u0000")}>
                    {row.map((cell, index) => (
                      <td key={table.columns[index]}>
                        {chart === "slowest" && index === 0 ? (
                          <Link href={`/requests/${cell}`}>{cell}</Link>
                        ) : (
                          cell
                        )}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </details>
      )}
      <p>
        <a href={csvHref} download>
          Download {table.title.toLowerCase()} as CSV
        </a>
      </p>
    </section>
  );
}
