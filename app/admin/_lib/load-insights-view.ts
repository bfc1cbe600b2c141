import "server-only";
import { listGroupSlugsForUser } from "@/lib/db/approver-groups";
import type { DbClient } from "@/lib/db/db-types";
import { summariseClosedDays } from "@/lib/db/insight-summaries";
import { listInsightChoices, loadInsights } from "@/lib/db/insights";
import { INSIGHT_PERIODS, type InsightScope, periodStart } from "@/lib/domain/insights";
import { type Actor, hasRole } from "@/lib/domain/roles";
import { parseInsightFilters } from "./insights-filters";

/**
 * Whose requests a viewer's insights cover: admins everyone's; reviewers those addressed to a
 * group they belong to and those addressed to any reviewer (they sit in every reviewer's inbox).
 */
export async function insightScopeFor({ db, actor }: { db: DbClient; actor: Actor }): Promise<InsightScope> {
  if (hasRole(actor.role, "admin")) return { kind: "all" };
  return { kind: "groups", slugs: await listGroupSlugsForUser({ db, userId: actor.id }) };
}

/** The page's (and its CSV downloads') scope, choices, checked filters and figures. */
export async function loadInsightsView({
  db,
  actor,
  params,
  now = new Date(),
}: {
  db: DbClient;
  actor: Actor;
  params: Record<string, string | string[] | undefined>;
  now?: Date;
}) {
  const scope = await insightScopeFor({ db, actor });
  // The closed days of the widest period first, so the tool choices read the same summaries
  // as the figures (after the first view of a day this is one query).
  await summariseClosedDays({ db, now, since: periodStart(now, Math.max(...INSIGHT_PERIODS)) });
  const choices = await listInsightChoices({ db, scope, now });
  const { filters, problems } = parseInsightFilters(params, choices.groups);
  const figures = await loadInsights({ db, scope, filters, now });
  return { scope, choices, filters, problems, figures, now };
}
