import { defineRoute } from "@/app/_lib/define-route";
import { insightCsv, insightTable } from "@/app/admin/_lib/insight-tables";
import { loadInsightsView } from "@/app/admin/_lib/load-insights-view";
import { ensureRole } from "@/lib/auth/guards";
import { INSIGHT_CHARTS, type InsightChart } from "@/lib/domain/insights";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/**
 * GET ?chart=…: one insights chart's table as CSV, from the same scope, filters and figures as
 * the page (a reviewer's download covers their groups only).
 */
export const GET = defineRoute(async ({ actor, request }, { db }) => {
  ensureRole(actor, "reviewer");
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const chart = params.chart;
  if (!(INSIGHT_CHARTS as readonly string[]).includes(chart ?? ""))
    throw new AppError("bad_request:input", {
      issues: [{ path: "chart", message: `chart must be one of: ${INSIGHT_CHARTS.join(", ")}` }],
    });
  const { figures } = await loadInsightsView({ db, actor, params });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(insightCsv(insightTable(chart as InsightChart, figures)), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="toolnexus-insights-${chart}-${day}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
