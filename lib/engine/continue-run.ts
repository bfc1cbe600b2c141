import { getRunPromptByRunId, listMessagesByThread } from "@/lib/db/messages";
import { listRequestsByWireIds } from "@/lib/db/requests";
import { getRunById, type StoredRun } from "@/lib/db/runs";
import type { Answer } from "@/lib/toolnexus/types";
import type { DriveDeps, Segment } from "./drive-run";

/**
 * Rebuilds where a run we have just claimed stands, from storage alone: its last checkpoint and
 * the stored answers of the requests that checkpoint is waiting on — or, when it died before
 * its first safe point, its prompt and history.
 */
export async function prepareContinuation(
  deps: DriveDeps,
  runId: string,
  signal: AbortSignal,
  /** The run as its claim returned it, which saves reading it again. */
  claimed?: StoredRun,
): Promise<Segment | null> {
  const run = claimed ?? (await getRunById({ db: deps.db, runId }));
  if (run?.status !== "running" || run.leaseOwner !== deps.instanceId) return null;
  const base = { runId, threadId: run.threadId, userId: run.userId, signal };
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
  const wireIds = run.checkpoint.slots.flatMap((slot) =>
    slot.state.status === "suspended" ? [slot.state.request.id] : [],
  );
  const rows = wireIds.length > 0 ? await listRequestsByWireIds({ db: deps.db, runId, wireIds }) : new Map();
  const answers: Answer[] = [];
  for (const id of wireIds) {
    const stored = rows.get(id)?.answer;
    if (!stored) continue;
    const answer: Answer = { id, ok: stored.ok };
    if (stored.data) answer.data = stored.data;
    if (stored.reason) answer.reason = stored.reason;
    answers.push(answer);
  }
  return { ...base, start: { kind: "resume", checkpoint: run.checkpoint, answers } };
}
