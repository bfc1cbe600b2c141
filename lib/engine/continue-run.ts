import { getDeadSegmentStartByRun } from "@/lib/db/events";
import { getRunPromptByRunId, listMessagesByThread } from "@/lib/db/messages";
import { listRequestsByWireIds } from "@/lib/db/requests";
import { getRunById, loadRunCheckpoint, type StoredRun, storedMessageCount } from "@/lib/db/runs";
import type { Answer } from "@/lib/toolnexus/types";
import type { DriveDeps, Segment } from "./drive-run";

/** What the caller already has in hand about a run it has just claimed. */
export interface KnownState {
  /** The run as its claim returned it, which saves reading it again. */
  claimed?: StoredRun;
  /** An answer stored just before the claim (see `toResumeAnswer`), which saves reading it back. */
  resolved?: Answer;
  /** Taken over from a process that stopped renewing its lease: what it wrote past its last safe point is superseded. */
  takeover?: boolean;
}

/**
 * The wire Answer a resumed tool sees, built the same way from a stored row or from one in hand:
 * only the wire keys, and the data through JSON as storing made it (detached from the caller's
 * objects, `undefined` dropped), so an answer handed over sees what a takeover would read back.
 */
export function toResumeAnswer(id: string, stored: Pick<Answer, "ok" | "data" | "reason">): Answer {
  const answer: Answer = { id, ok: stored.ok };
  if (stored.data) answer.data = JSON.parse(JSON.stringify(stored.data));
  if (stored.reason) answer.reason = stored.reason;
  return answer;
}

/**
 * Rebuilds where a run we have just claimed stands, from storage alone: its last checkpoint and
 * the stored answers of the requests that checkpoint is waiting on — or, when it died before
 * its first safe point, its prompt and history.
 */
export async function prepareContinuation(
  deps: DriveDeps,
  runId: string,
  signal: AbortSignal,
  { claimed, resolved, takeover }: KnownState = {},
): Promise<Segment | null> {
  const run = claimed ?? (await getRunById({ db: deps.db, runId }));
  if (run?.status !== "running" || run.leaseOwner !== deps.instanceId) return null;
  const supersedeAfter = takeover
    ? await getDeadSegmentStartByRun({ db: deps.db, runId, savedEventSeq: run.savedEventSeq })
    : null;
  const base = {
    runId,
    threadId: run.threadId,
    userId: run.userId,
    signal,
    ...(supersedeAfter === null ? {} : { supersedeAfter }),
  };
  if (!run.checkpoint) {
    const prompt = await getRunPromptByRunId({ db: deps.db, runId });
    if (!prompt) return null;
    const history = await listMessagesByThread({
      db: deps.db,
      threadId: run.threadId,
      beforeSeq: prompt.seq,
    });
    return { ...base, start: { kind: "fresh", prompt: prompt.content, history } };
  }
  const checkpoint = await loadRunCheckpoint({
    db: deps.db,
    threadId: run.threadId,
    stored: run.checkpoint,
  });
  const wireIds = checkpoint.slots.flatMap((slot) =>
    slot.state.status === "suspended" ? [slot.state.request.id] : [],
  );
  // A request id is unique within its run, so the answer in hand is the stored one.
  const inHand = resolved && wireIds.includes(resolved.id) ? resolved : undefined;
  const toRead = wireIds.filter((id) => id !== inHand?.id);
  const rows =
    toRead.length > 0 ? await listRequestsByWireIds({ db: deps.db, runId, wireIds: toRead }) : new Map();
  const answers: Answer[] = [];
  for (const id of wireIds) {
    if (id === inHand?.id) answers.push(inHand);
    else {
      const stored = rows.get(id)?.answer;
      if (stored) answers.push(toResumeAnswer(id, stored));
    }
  }
  const messageCount = storedMessageCount(run.checkpoint);
  return { ...base, start: { kind: "resume", checkpoint, messageCount, answers } };
}
