import { describe, expect, it } from "vitest";
import { computeInsights, INSIGHT_CHARTS, summariseAnswers } from "@/lib/domain/insights";
import { insightChartSvg } from "./insight-chart-svg";

const now = new Date(Date.UTC(2030, 0, 10, 12));
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const figures = computeInsights({
  now,
  days: 7,
  answered: summariseAnswers([
    { tool: "deploy", group: "sre", askedAt: minutesAgo(90), answeredAt: minutesAgo(60), ok: true },
    { tool: "email", group: "*any", askedAt: minutesAgo(50), answeredAt: minutesAgo(45), ok: false },
  ]),
  expiredAt: [minutesAgo(30)],
  open: [{ id: "r1", tool: "deploy", group: "sre", prompt: "Go?", askedAt: minutesAgo(10) }],
});

describe("insightChartSvg", () => {
  it("renders each chart as SVG on the server, and nothing for the list of slowest requests", () => {
    for (const chart of INSIGHT_CHARTS) {
      const svg = insightChartSvg(chart, figures);
      if (chart === "slowest") expect(svg).toBeUndefined();
      else {
        expect(svg).toMatch(/<svg[^>]*viewBox/);
        expect(svg).not.toContain("aria-label");
        // Plot draws a warning sign into a chart whose options it finds suspect.
        expect(svg).not.toContain("\u26a0");
      }
    }
    // One bar per age bucket; per day of the period two stacked (escalated, expired), and the
    // legend's two swatches.
    expect(insightChartSvg("open-by-age", figures)?.match(/<rect/g)).toHaveLength(5);
    expect(insightChartSvg("expiries", figures)?.match(/<rect/g)).toHaveLength(7 * 2 + 2);
    expect(insightChartSvg("by-group", figures)).toContain("any reviewer p90");
  });

  it("draws no empty line chart", () => {
    const empty = computeInsights({ now, days: 7, answered: [], expiredAt: [], open: [] });
    expect(insightChartSvg("by-tool", empty)).toBeUndefined();
  });
});
