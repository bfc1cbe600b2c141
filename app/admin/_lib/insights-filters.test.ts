import { describe, expect, it } from "vitest";
import { insightsSearch, parseInsightFilters } from "./insights-filters";

const GROUPS = ["*any", "sre"];

describe("parseInsightFilters", () => {
  it("defaults to 30 days, every tool and every group", () => {
    expect(parseInsightFilters({}, GROUPS)).toEqual({
      filters: { days: 30, tool: undefined, group: undefined },
      problems: [],
    });
  });

  it("keeps good values", () => {
    expect(parseInsightFilters({ days: "90", tool: "deploy.prod", group: "sre" }, GROUPS).filters).toEqual({
      days: 90,
      tool: "deploy.prod",
      group: "sre",
    });
  });

  it("names each bad value, applies its default and keeps the rest", () => {
    const parsed = parseInsightFilters({ days: "365", tool: "<script>", group: "sre" }, GROUPS);
    expect(parsed.filters).toEqual({ days: 30, tool: undefined, group: "sre" });
    expect(parsed.problems.map((problem) => problem.field)).toEqual(["days", "tool"]);
    expect(parsed.problems[0]?.message).toBe("Period must be 7, 30 or 90 days; showing 30 days.");
  });

  it("refuses a group outside the viewer's scope, so a URL cannot widen it", () => {
    const parsed = parseInsightFilters({ group: "finance", days: ["7", "90"] }, GROUPS);
    expect(parsed.filters).toEqual({ days: 7, tool: undefined, group: undefined });
    expect(parsed.problems).toEqual([
      { field: "group", message: "Group is not one you can see; showing every group." },
    ]);
  });

  it("writes the URL back with defaults left out", () => {
    expect(insightsSearch({ days: 30, tool: undefined, group: undefined })).toBe("");
    expect(insightsSearch({ days: 7, tool: "deploy", group: "*any" }, { chart: "rates" })).toBe(
      "?days=7&tool=deploy&group=*any&chart=rates",
    );
  });
});
