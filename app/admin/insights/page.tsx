import { getAppServices } from "@/app/_lib/app-services";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { InsightPanel } from "@/components/admin/insight-panel";
import { requirePageRole } from "@/lib/auth/guards";
import { groupLabel, INSIGHT_CHARTS, INSIGHT_PERIODS } from "@/lib/domain/insights";
import { hasRole } from "@/lib/domain/roles";
import { insightChartSvg } from "../_lib/insight-chart-svg";
import { insightTable } from "../_lib/insight-tables";
import { insightsSearch } from "../_lib/insights-filters";
import { loadInsightsView } from "../_lib/load-insights-view";
import "@/components/admin/admin.css";
import "@/components/inbox/inbox.css";

export const metadata = { title: "Insights · toolnexus" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const NOTES: Partial<Record<(typeof INSIGHT_CHARTS)[number], string>> = {
  "by-tool":
    "Median (p50) and 90th percentile (p90) of the time from asking to answer, per day of answer; each read from a histogram, so at most 3% above the exact figure.",
  "by-group": "The same, by who the request was addressed to.",
  expiries:
    "Escalation steps that asked more people (per day they fired), and requests that expired unanswered.",
  "open-by-age": "Requests waiting now, by how long they have waited (the period does not apply).",
  slowest: "The ten requests that have waited longest, oldest first.",
};

/**
 * How the inbox is doing: answer times, what piles up, what expires, what is declined. Admins
 * see every request; reviewers those addressed to their groups or to any reviewer.
 */
export default async function InsightsPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const user = await requirePageRole("reviewer", "/admin/insights");
  const { db } = await getAppServices();
  const view = await loadInsightsView({ db, actor: user, params });
  const { filters, problems, choices, figures } = view;
  const admin = hasRole(user.role, "admin");
  return (
    <section className="stack" aria-labelledby="insights-title">
      <h1 id="insights-title" className="page-title">
        {admin ? "Admin" : "Insights"}
      </h1>
      {admin && <AdminTabs current="/admin/insights" />}
      <p className="muted">
        {admin
          ? "How every request is answered: how long it takes, what waits and what is declined."
          : "How requests for your groups and for any reviewer are answered."}
      </p>
      {problems.length > 0 && (
        <div role="alert" aria-label="Filter problems" className="admin-cell-error">
          <ul>
            {problems.map((problem) => (
              <li key={problem.field}>{problem.message}</li>
            ))}
          </ul>
        </div>
      )}
      <form method="get" action="/admin/insights" className="inbox-filters" aria-label="Filter insights">
        <label>
          Period
          <select name="days" defaultValue={String(filters.days)}>
            {INSIGHT_PERIODS.map((days) => (
              <option key={days} value={days}>
                Last {days} days
              </option>
            ))}
          </select>
        </label>
        <label>
          Tool
          <select name="tool" defaultValue={filters.tool ?? ""}>
            <option value="">Any tool</option>
            {choices.tools.map((tool) => (
              <option key={tool} value={tool}>
                {tool}
              </option>
            ))}
          </select>
        </label>
        <label>
          Group
          <select name="group" defaultValue={filters.group ?? ""}>
            <option value="">Any group</option>
            {choices.groups.map((group) => (
              <option key={group} value={group}>
                {groupLabel(group)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-secondary">
          Apply
        </button>
      </form>
      <div className="insight-grid">
        {INSIGHT_CHARTS.map((chart) => (
          <InsightPanel
            key={chart}
            chart={chart}
            table={insightTable(chart, figures)}
            svg={insightChartSvg(chart, figures)}
            csvHref={`/admin/insights/export${insightsSearch(filters, { chart })}`}
            {...(NOTES[chart] ? { note: NOTES[chart] } : {})}
          />
        ))}
      </div>
    </section>
  );
}
