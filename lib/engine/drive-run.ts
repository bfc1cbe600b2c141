import type { DbClient } from "@/lib/db/db-types";
import { ReusedRequestIdError } from "@/lib/db/park-run";
import { closeOpenTurn, finishRun } from "@/lib/db/run-endings";
import { saveRunCheckpoint } from "@/lib/db/runs";
import { logger } from "@/lib/log/logger";
import { linkAbort } from "@/lib/toolnexus/abort-link";
import { isToolnexusError } from "@/lib/toolnexus/errors";
import type {
  Answer,
  Checkpoint,
  Client,
  Message,
  ResumableCheckpoint,
  RunResult,
  SafePoint,
  StreamEvent,
} from "@/lib/toolnexus/types";
import type { AnswerPolicy } from "./answer-policy";
import type { EngineToolkit, ToolkitContext } from "./engine-types";
import type { EventBus } from "./event-bus";
import { createEventWriter, type EventWriter, publishAll } from "./event-writer";
import { finishSegment, parkSegment, pauseSegment } from "./segment-endings";
import { createSegmentPause } from "./segment-pause";
import { createStreamPositions } from "./stream-positions";
import { inRunSegment, inSpan } from "./tracing";

export interface DriveDeps {
  db: DbClient;
  bus: EventBus;
  instanceId: string;
  leaseMs: number;
  textFlushMs: number;
  policy: AnswerPolicy;
  createClient: () => Client;
  createToolkit: (ctx: ToolkitContext) => EngineToolkit | Promise<EngineToolkit>;
}

/** Where a segment of a run starts: a new prompt, or a stored checkpoint plus resolved answers. */
export type SegmentStart =
  | { kind: "fresh"; prompt: string; history: Message[] }
  | {
      kind: "resume";
      /** As storage hands it back: the transcript as the rows' text, or to be read when asked for. */
      checkpoint: ResumableCheckpoint;
      /** How many messages its transcript holds (all of them stored). */
      messageCount: number;
      answers: Answer[];
    };

export interface Segment {
  runId: string;
  threadId: string;
  userId: string;
  start: SegmentStart;
  signal: AbortSignal;
  /** Set on a takeover whose dead predecessor logged transcript events after this seq. */
  supersedeAfter?: number;
}

class LeaseLost extends Error {}

const internalFailure = "The run stopped because of an internal error.";

function publicFailure(error: unknown): string {
  // Provider and loop errors are about the model call and safe to show; anything else may
  // carry storage details and is reduced to a generic line.
  if (error instanceof ReusedRequestIdError) return error.message;
  return isToolnexusError(error) ? error.message.slice(0, 500) : internalFailure;
}

function isHalting({ slots }: Checkpoint): boolean {
  return (
    slots.some((slot) => slot.state.status === "suspended") &&
    slots.every((slot) => slot.state.status !== "queued")
  );
}

function forward(writer: EventWriter, event: StreamEvent): RunResult | undefined {
  switch (event.type) {
    case "text":
      writer.text(event.delta);
      return undefined;
    case "tool_call":
      writer.push({ type: "tool_call", toolCallId: event.id, name: event.name, args: event.args });
      return undefined;
    case "tool_result":
      writer.push({
        type: "tool_result",
        toolCallId: event.id,
        name: event.name,
        output: event.output,
        isError: event.isError,
      });
      return undefined;
    case "usage":
      writer.push({ type: "usage", usage: event.usage });
      return undefined;
    case "pending":
      // Parking announces every suspension at once, with the stored request ids.
      return undefined;
    case "done":
      return event.result;
  }
}

/**
 * Drives one segment of a run this process holds the lease on: from a prompt or a checkpoint
 * until the run parks, ends, fails, or the lease is gone. Progress is stored at every safe
 * point the loop reports, so whoever takes over later starts from there.
 */
export function driveRun(deps: DriveDeps, segment: Segment): Promise<void> {
  const kind = segment.start.kind === "fresh" ? "start" : "resume";
  return inRunSegment(segment.runId, kind, () => driveSegment(deps, segment));
}

async function driveSegment(deps: DriveDeps, segment: Segment): Promise<void> {
  const { db, bus, instanceId, leaseMs } = deps;
  const { runId, threadId, userId, start } = segment;
  const { controller: stop, release } = linkAbort(segment.signal);
  const signal = stop.signal;
  const pause = createSegmentPause(stop);
  const { stored } = pause;
  const writer = createEventWriter({
    db,
    bus,
    threadId,
    runId,
    leaseOwner: instanceId,
    textFlushMs: deps.textFlushMs,
    // Streaming on while nothing can be stored would only be redone: stop at the first failure.
    onFailure: pause.onStorageFailure,
  });
  let lastCheckpoint: ResumableCheckpoint | null = start.kind === "resume" ? start.checkpoint : null;
  let storedMessages = start.kind === "resume" ? start.messageCount : start.history.length + 1;

  const positions = createStreamPositions(writer.position);

  let savedDigest = start.kind === "resume" ? start.checkpoint.digest : "";
  const onCheckpoint = async (checkpoint: Checkpoint, at: SafePoint) => {
    // The loop reports a safe point right after emitting the events that lead to it, while those
    // events may still wait in the stream for the loop below to forward them; by the time this
    // runs, events of a later state may have been forwarded too. Only the first `at.events` go
    // with this checkpoint (and its `savedEventSeq`): a takeover from it supersedes the rest.
    const upTo = await positions.after(at.events);
    lastCheckpoint = checkpoint;
    // The last call of a turn to settle and the halt that follows report the same state.
    if (checkpoint.digest === savedDigest) return;
    // Every call settled and one is waiting: the loop halts next, and parking stores this very
    // state and the events before it in one transaction, so a write here would only slow it.
    if (isHalting(checkpoint)) return;
    const withMessages = checkpoint.messages.length > storedMessages;
    const held = await stored(() =>
      writer.storeWith(
        (bodies) =>
          saveRunCheckpoint({
            db,
            runId,
            threadId,
            leaseOwner: instanceId,
            leaseExpiresAt: new Date(Date.now() + leaseMs),
            checkpoint,
            withMessages,
            storedMessages,
            bodies,
            lastStoredSeq: writer.lastStoredSeqBefore(upTo),
          }),
        upTo,
      ),
    );
    if (!held) {
      stop.abort();
      throw new LeaseLost();
    }
    storedMessages = checkpoint.messages.length;
    savedDigest = checkpoint.digest;
  };

  let toolkit: EngineToolkit | undefined;
  // The new owner redoes whatever its dead predecessor did past the last safe point; the marker
  // makes replays skip that, so no text or tool card appears twice.
  if (segment.supersedeAfter !== undefined)
    writer.push({ type: "superseded", afterSeq: segment.supersedeAfter });
  // A resumed run announces itself at once, before its first model or tool activity.
  if (start.kind === "resume") writer.push({ type: "run_status", status: "running" });
  positions.forwarded();
  try {
    // The app's toolkit reads its MCP servers and policies from storage.
    toolkit = await stored(async () => deps.createToolkit({ userId, runId, threadId }));
    const client = deps.createClient();
    const options = { toolkit, signal, onCheckpoint };
    const events =
      start.kind === "fresh"
        ? client.stream(start.prompt, { ...options, history: start.history, runId })
        : client.resumeStream(pause.readingStored(start.checkpoint), start.answers, options);
    let result: RunResult | undefined;
    for await (const event of events) {
      result = forward(writer, event) ?? result;
      if (event.type !== "done") positions.forwarded();
    }
    if (!result) throw new Error("the run ended without a result");
    if (result.status === "pending") {
      const withMessages = result.checkpoint!.messages.length > storedMessages;
      await stored(() =>
        inSpan("toolnexus.park", {}, () =>
          parkSegment(deps, segment, writer, result, { withMessages, storedMessages }),
        ),
      );
    } else await stored(() => finishSegment(deps, segment, writer, result, storedMessages));
  } catch (error) {
    // A lost lease, a stop, or a pause (the database away, which is no fault of the run's) means
    // the run stays as last stored and another segment carries on from there.
    if (error instanceof LeaseLost || signal.aborted) return;
    await writer.flush().catch(() => {});
    logger.error({ err: error, runId, threadId }, "run failed");
    const message = publicFailure(error);
    const events = await finishRun({
      db,
      runId,
      threadId,
      leaseOwner: instanceId,
      status: "failed",
      error: message,
      messages: await closeOpenTurn(lastCheckpoint, `failed: ${message}`),
      bodies: [
        { type: "run_status", status: "failed", error: message },
        { type: "run_finished", status: "failed", text: "" },
      ],
    });
    if (events) await publishAll(bus, events);
  } finally {
    release();
    positions.close();
    // Whatever is still queued goes out now (or is dropped if the run is no longer ours), and
    // no timer is left behind.
    await writer.flush().catch(() => {});
    await toolkit?.close?.();
    if (pause.cause) await pauseSegment(deps, segment, pause.cause.error);
  }
}
