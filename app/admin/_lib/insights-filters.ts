import { z } from "zod";
import { INSIGHT_PERIODS, type InsightFilters, type InsightPeriod } from "@/lib/domain/insights";

type Params = Record<string, string | string[] | undefined>;

export interface ParsedInsightFilters {
  filters: InsightFilters;
  /** One sentence per refused value, naming the field; the default stands in for it. */
  problems: { field: "days" | "tool" | "group"; message: string }[];
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const days = z.coerce
  .number()
  .int()
  .refine((value): value is InsightPeriod => (INSIGHT_PERIODS as readonly number[]).includes(value));
const tool = z.string().regex(/^[\w.:-]{1,128}$/);

/**
 * The page's filters from its URL. Each value is checked on its own: a bad one is named and
 * replaced by its default (30 days, every tool, every group the viewer may see), the rest stay.
 * `groups` is what this viewer may pick, so a reviewer cannot widen their scope by URL.
 */
export function parseInsightFilters(params: Params, groups: readonly string[]): ParsedInsightFilters {
  const problems: ParsedInsightFilters["problems"] = [];
  const rawDays = first(params.days);
  const rawTool = first(params.tool);
  const rawGroup = first(params.group);
  const parsedDays = rawDays === undefined || rawDays === "" ? undefined : days.safeParse(rawDays);
  if (parsedDays && !parsedDays.success)
    problems.push({ field: "days", message: "Period must be 7, 30 or 90 days; showing 30 days." });
  const parsedTool = rawTool === undefined || rawTool === "" ? undefined : tool.safeParse(rawTool);
  if (parsedTool && !parsedTool.success)
    problems.push({ field: "tool", message: "Tool is not a tool name; showing every tool." });
  const groupOk = rawGroup === undefined || rawGroup === "" || groups.includes(rawGroup);
  if (!groupOk)
    problems.push({ field: "group", message: "Group is not one you can see; showing every group." });
  return {
    filters: {
      days: parsedDays?.success ? (parsedDays.data as InsightPeriod) : 30,
      tool: parsedTool?.success ? parsedTool.data : undefined,
      group: groupOk && rawGroup ? rawGroup : undefined,
    },
    problems,
  };
}

/** The query string for a filter set, defaults left out. */
export function insightsSearch(filters: InsightFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.days !== 30) params.set("days", String(filters.days));
  if (filters.tool) params.set("tool", filters.tool);
  if (filters.group) params.set("group", filters.group);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}
