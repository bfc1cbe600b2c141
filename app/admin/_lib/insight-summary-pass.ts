import type { DbClient } from "@/lib/db/db-types";
import { summariseClosedDaysAlone } from "@/lib/db/insight-summaries";
import { INSIGHT_PERIODS, periodStart } from "@/lib/domain/insights";
import { pollPasses } from "@/lib/notify/polling-pass";

// The insights page summarises a closed day the first time it needs one (ADR 0099), so without
// this pass the first view after a deploy onto a long history, or the first after midnight, would
// pay for summarising it. Every instance runs the pass, but one at a time: the others skip the
// round without reading the backlog. Each day is still written once, by whichever insert of its
// key wins, should the page's loader summarise it meanwhile.

/** How often the pass looks for a newly closed day: a day closes once, so rarely is enough. */
export const INSIGHT_SUMMARY_POLL_MS = 5 * 60_000;
const LONGEST_PERIOD = Math.max(...INSIGHT_PERIODS);

export function createInsightSummaryPass({
  db,
  now = () => new Date(),
  pollMs = INSIGHT_SUMMARY_POLL_MS,
}: {
  db: DbClient;
  now?: () => Date;
  pollMs?: number;
}) {
  const pass = async () => {
    const at = now();
    await summariseClosedDaysAlone({ db, now: at, since: periodStart(at, LONGEST_PERIOD) });
    // All due days are done in one pass (or by the instance holding the lock): the next one
    // waits for the poll.
    return 0;
  };
  const polling = pollPasses({ pass, pollMs, failure: "insights summary pass failed" });
  return { pass, start: polling.start, stop: polling.stop };
}
