import type { EventType, ThreadEvent } from "./events";

/** The events a dead segment may have written past its last safe point, and that a takeover redoes. */
export const transcriptEventTypes: ReadonlySet<EventType> = new Set([
  "text",
  "tool_call",
  "tool_result",
  "usage",
]);

/** One `superseded` marker: the seqs strictly between `afterSeq` and `seq` are void for its run. */
export interface SupersededRange {
  runId: string;
  afterSeq: number;
  seq: number;
}

export function supersededRangeOf(event: ThreadEvent): SupersededRange | null {
  if (event.type !== "superseded" || event.runId === null) return null;
  return { runId: event.runId, afterSeq: event.afterSeq, seq: event.seq };
}

/** Every marker in `events`. */
export function supersededRanges(events: readonly ThreadEvent[]): SupersededRange[] {
  return events.flatMap((event) => supersededRangeOf(event) ?? []);
}

/** Whether a marker voids `event`: a transcript event of its run inside its range. */
export function isSuperseded(event: ThreadEvent, ranges: readonly SupersededRange[]): boolean {
  if (!transcriptEventTypes.has(event.type)) return false;
  return ranges.some(
    (range) => range.runId === event.runId && event.seq > range.afterSeq && event.seq < range.seq,
  );
}
