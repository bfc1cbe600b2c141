import { groupLabel, type InsightChart, type InsightFigures, type InsightTable } from "@/lib/domain/insights";
import { csvField } from "./audit-csv";

/**
 * Each chart's figures as a table: the page shows it beside the chart (for screen readers) and
 * the CSV download is the same table, so the two never disagree.
 */
export function insightTable(chart: InsightChart, figures: InsightFigures): InsightTable {
  switch (chart) {
    case "by-tool":
    case "by-group": {
      const points = chart === "by-tool" ? figures.byTool : figures.byGroup;
      return {
        title: chart === "by-tool" ? "Time to answer by tool" : "Time to answer by group",
        columns: ["Day", chart === "by-tool" ? "Tool" : "Group", "Answers", "p50 (minutes)", "p90 (minutes)"],
        rows: points.map((p) => [
          p.day,
          chart === "by-tool" ? p.series : groupLabel(p.series),
          p.answers,
          p.p50Minutes,
          p.p90Minutes,
        ]),
      };
    }
    case "open-by-age":
      return {
        title: "Open requests by age",
        columns: ["Age", "Open requests"],
        rows: figures.openByAge.map((row) => [row.bucket, row.open]),
      };
    case "expiries":
      return {
        title: "Escalations and expiries per day",
        columns: ["Day", "Escalated", "Expired"],
        rows: figures.expiriesPerDay.map((row, at) => [
          row.day,
          figures.escalationsPerDay[at]?.escalated ?? 0,
          row.expired,
        ]),
      };
    case "rates":
      return {
        title: "Approve and decline rates by tool",
        columns: ["Tool", "Answers", "Approved", "Declined", "Approved (%)"],
        rows: figures.ratesByTool.map((r) => [r.tool, r.answers, r.approved, r.declined, r.approvedShare]),
      };
    case "slowest":
      return {
        title: "Slowest open requests",
        columns: ["Request", "Tool", "Group", "Asked", "Waiting (minutes)"],
        rows: figures.slowestOpen.map((r) => [
          r.id,
          r.tool,
          groupLabel(r.group),
          r.askedAt.toISOString(),
          r.ageMinutes,
        ]),
      };
  }
}

/** A table as CSV text (RFC 4180, CRLF), cells made safe for spreadsheets. */
export function insightCsv(table: InsightTable): string {
  const lines = [table.columns, ...table.rows].map((row) =>
    row.map((cell) => csvField(String(cell))).join(","),
  );
  return `${lines.join("\r\n")}\r\n`;
}
