import { z } from "zod";
import { parseInput } from "@/app/_lib/parse-input";
import { publicErrorOf } from "@/app/_lib/public-error";
import type { SessionUser } from "@/lib/auth/session-user";
import type { DbClient } from "@/lib/db/db-types";
import { getFirstEventSeqByRun, listSupersededMarkersByRun } from "@/lib/db/events";
import { getActiveRunByThread, getRunById } from "@/lib/db/runs";
import { supersededRanges } from "@/lib/domain/superseded-events";
import type { Engine } from "@/lib/engine/engine-types";
import { AppError } from "@/lib/errors";
import { loadOwnThread } from "./load-own-thread";
import { type ChatChunk, RunChunkTranslator } from "./run-chunk-translator";
import { uiMessageSseResponse } from "./ui-message-sse";

export const runStreamInput = z
  .object({
    threadId: z.string().min(1).max(64),
    runId: z.string().min(1).max(64).optional(),
  })
  .strict();

// A comment line now and then keeps proxies from closing a stream that is quietly waiting for
// a reviewer; it carries no data.
const KEEP_ALIVE_MS = 15_000;

/**
 * The UI message stream of one run: replayed from the run's first event in the thread's log,
 * then followed live until the run ends. Without a run id it attaches to the thread's active
 * run, and answers 204 when there is none, which `useChat` reads as "nothing to resume".
 */
export async function openRunStream(
  { actor, input, signal }: { actor: SessionUser; input: unknown; signal?: AbortSignal },
  { engine, db }: { engine: Engine; db: DbClient },
): Promise<Response> {
  const { threadId, runId } = parseInput(runStreamInput, input);
  await loadOwnThread({ actor, threadId }, { db });

  let target: string;
  if (runId) {
    const run = await getRunById({ db, runId });
    if (!run || run.threadId !== threadId) throw new AppError("not_found:run");
    target = run.id;
  } else {
    const active = await getActiveRunByThread({ db, threadId });
    if (!active) return new Response(null, { status: 204 });
    target = active.id;
  }

  const firstSeq = await getFirstEventSeqByRun({ db, runId: target });
  // A run with no event yet has nothing to skip: reading from the start is correct, if slower.
  const afterSeq = firstSeq === null ? 0 : firstSeq - 1;
  // A replay skips what a takeover redid; the markers come after those events, so read them first.
  const markers = await listSupersededMarkersByRun({ db, runId: target });
  const translator = new RunChunkTranslator(target, supersededRanges(markers));

  return uiMessageSseResponse<ChatChunk>({
    execute: async (write) => {
      // A change without an event (a vote, a fired escalation step) has the open cards read again.
      const onChange = () => write({ type: "data-changed", data: {}, transient: true });
      for await (const event of engine.subscribe({ threadId, afterSeq, signal, onChange })) {
        for (const chunk of translator.push(event)) write(chunk);
        // Ending the stream of a live run makes the client reattach, and its replay skips
        // what this viewer was shown before the run changed hands.
        if (translator.finished || translator.stale) return;
      }
    },
    onError: (error) => publicErrorOf(error).message,
    keepAliveMs: KEEP_ALIVE_MS,
  });
}
