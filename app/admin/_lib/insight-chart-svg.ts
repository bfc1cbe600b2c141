import "server-only";
import * as Plot from "@observablehq/plot";
import { JSDOM } from "jsdom";
import { groupLabel, type InsightChart, type InsightFigures } from "@/lib/domain/insights";

// Observable Plot builds its SVG with DOM calls; on the server a jsdom document stands in for
// the browser's, and the page embeds the markup it produced. No script runs on the phone.
const document = new JSDOM("").window.document;

const day = (text: string) => new Date(`${text}T00:00:00Z`);

function options(chart: InsightChart, figures: InsightFigures): Plot.PlotOptions | undefined {
  const base = { document, width: 640, height: 260, marginLeft: 48, style: { fontSize: "12px" } };
  switch (chart) {
    case "by-tool":
    case "by-group": {
      const points = (chart === "by-tool" ? figures.byTool : figures.byGroup).flatMap((p) => [
        { day: day(p.day), minutes: p.p50Minutes, line: `${groupLabel(p.series)} p50` },
        { day: day(p.day), minutes: p.p90Minutes, line: `${groupLabel(p.series)} p90` },
      ]);
      if (points.length === 0) return undefined;
      return {
        ...base,
        color: { legend: true },
        y: { label: "minutes", grid: true },
        x: { label: null },
        marks: [
          Plot.lineY(points, { x: "day", y: "minutes", stroke: "line", z: "line", marker: "dot" }),
          Plot.ruleY([0]),
        ],
      };
    }
    case "open-by-age":
      return {
        ...base,
        x: { label: null, domain: figures.openByAge.map((r) => r.bucket) },
        y: { label: "open", grid: true },
        marks: [Plot.barY(figures.openByAge, { x: "bucket", y: "open", fill: "#2f6fb3" }), Plot.ruleY([0])],
      };
    case "expiries": {
      // Escalated and expired stacked per day: what waited too long, and how it ended up.
      const rows = figures.expiriesPerDay.flatMap((row, at) => [
        { day: row.day, what: "escalated", count: figures.escalationsPerDay[at]?.escalated ?? 0 },
        { day: row.day, what: "expired", count: row.expired },
      ]);
      return {
        ...base,
        color: { legend: true, domain: ["escalated", "expired"], range: ["#6b4fa3", "#a3501e"] },
        x: { label: null, type: "band", tickFormat: (d: string) => d.slice(5) },
        y: { label: "requests", grid: true },
        marks: [Plot.barY(rows, { x: "day", y: "count", fill: "what" }), Plot.ruleY([0])],
      };
    }
    case "rates": {
      if (figures.ratesByTool.length === 0) return undefined;
      const rows = figures.ratesByTool.flatMap((r) => [
        { tool: r.tool, outcome: "approved", share: r.approvedShare },
        { tool: r.tool, outcome: "declined", share: Math.round((100 - r.approvedShare) * 10) / 10 },
      ]);
      return {
        ...base,
        marginLeft: 120,
        color: { legend: true, domain: ["approved", "declined"], range: ["#2e7d32", "#b3261e"] },
        x: { label: "% of answers", domain: [0, 100] },
        y: { label: null },
        marks: [Plot.barX(rows, Plot.stackX({ y: "tool", x: "share", fill: "outcome" }))],
      };
    }
    case "slowest":
      return undefined;
  }
}

/** The chart's SVG markup, or undefined when it has nothing to draw (the table says so). */
export function insightChartSvg(chart: InsightChart, figures: InsightFigures): string | undefined {
  const plotOptions = options(chart, figures);
  if (!plotOptions) return undefined;
  const element = Plot.plot(plotOptions) as unknown as Element;
  // Plot labels its mark groups (`<g aria-label="bar">`), which ARIA forbids on elements with
  // no role; the page names the whole chart and its table carries the numbers.
  for (const labelled of element.querySelectorAll("[aria-label], [aria-description]")) {
    labelled.removeAttribute("aria-label");
    labelled.removeAttribute("aria-description");
  }
  return element.outerHTML;
}
