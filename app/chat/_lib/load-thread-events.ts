import type { DbClient } from "@/lib/db/db-types";
import { listEventsAfterSeq } from "@/lib/db/events";
import type { ThreadEvent } from "@/lib/domain/events";

const PAGE = 500;

/** Every event of a thread, in order, read in pages so no single query grows unbounded. */
export async function loadThreadEvents({
  db,
  threadId,
}: {
  db: DbClient;
  threadId: string;
}): Promise<ThreadEvent[]> {
  const events: ThreadEvent[] = [];
  for (;;) {
    const page = await listEventsAfterSeq({ db, threadId, afterSeq: events.at(-1)?.seq ?? 0, limit: PAGE });
    events.push(...page);
    if (page.length < PAGE) return events;
  }
}
