import { createCheckpoint, createTranscriptCache, type TranscriptCache } from "./checkpoint";
import { ToolnexusError } from "./errors";
import type { MetricsRegistry } from "./metrics";
import type {
  Checkpoint,
  LoopOptions,
  Message,
  Metric,
  ModelDriver,
  SafePoint,
  StreamEvent,
  ToolCallRecord,
  ToolkitLike,
  ToolSlot,
  ToolSpec,
  Usage,
} from "./types";

/** Everything a checkpoint captures; the loop mutates it in place as the run advances. */
export interface RunState {
  runId: string;
  messages: Message[];
  /** The tool calls of the current turn; empty between turns. */
  slots: ToolSlot[];
  /** Records of every tool call of the finished turns. */
  toolCalls: ToolCallRecord[];
  turns: number;
  usage: Usage;
}

/** One run (or one resume) in flight: its state plus the collaborators it talks to. */
export interface RunContext {
  driver: ModelDriver;
  options: LoopOptions;
  toolkit?: ToolkitLike;
  signal?: AbortSignal;
  streaming: boolean;
  emit: (event: StreamEvent) => void;
  onCheckpoint?: (checkpoint: Checkpoint, at: SafePoint) => void | Promise<void>;
  /** Tools a `beforeLLM` hook put in place of the toolkit's, for the rest of the run. */
  tools?: ToolSpec[];
  /** The client's cumulative metrics (`client.metrics()`). */
  metrics?: MetricsRegistry;
  /** `performance.now()` when this run (or resume) started, for its `run` metric. */
  started: number;
  /** In a stream: settles once the consumer has handled the first `count` events. */
  delivered?: (count: number) => Promise<void>;
  /** How many events this run has emitted so far. */
  emitted: number;
  state: RunState;
  /** Serializes onCheckpoint calls so a host sees safe points in order, one at a time. */
  persisted: Promise<void>;
  /** Set once the run has returned or failed; stragglers must not report progress after that. */
  ended?: boolean;
  /** What earlier snapshots of this run serialized already (see `TranscriptCache`). */
  transcript?: TranscriptCache;
  /**
   * Set while a resumed run's transcript is still to be read and verified (see
   * `DeferredCheckpoint`): starts that (once) and settles when it is done. `state.messages`
   * is empty until then; the loop clears it once the resumed turn's calls have settled and it
   * has been awaited.
   */
  pendingTranscript?: () => Promise<void>;
}

export function snapshot(run: RunContext): Checkpoint {
  const { state } = run;
  run.transcript ??= createTranscriptCache();
  return createCheckpoint(
    {
      runId: state.runId,
      model: run.driver.model,
      messages: state.messages,
      slots: state.slots,
      toolCalls: state.toolCalls,
      turns: state.turns,
      usage: state.usage,
    },
    run.options.checkpointKey,
    run.transcript,
  );
}

/** A safe point: snapshot now, hand it to the host, and wait until the host has taken it. */
export function reachSafePoint(run: RunContext): Promise<void> {
  const { onCheckpoint, pendingTranscript } = run;
  // Without a listener there is nothing to persist, so no serialization cost on the hot path.
  if (!onCheckpoint || run.ended) return run.persisted;
  if (pendingTranscript) {
    // No snapshot without the transcript: this one is taken once it is verified (a transcript
    // that fails its check fails the run here). Every safe point until the loop clears
    // `pendingTranscript` waits in this same line, so the host still sees them in order, each
    // snapshot with the events emitted up to the moment it was taken.
    run.persisted = run.persisted.then(pendingTranscript).then(() => {
      if (run.ended) return;
      const checkpoint = snapshot(run);
      return onCheckpoint(checkpoint, { events: run.emitted });
    });
    return run.persisted;
  }
  const checkpoint = snapshot(run);
  // Taken now: the host may hear of this safe point only after later events went out.
  const at: SafePoint = { events: run.emitted };
  run.persisted = run.persisted.then(() => onCheckpoint(checkpoint, at));
  return run.persisted;
}

/** Waits for a resumed run's transcript, if it is still to be read (see `pendingTranscript`). */
export async function transcriptSettled(run: RunContext): Promise<void> {
  if (!run.pendingTranscript) return;
  await run.pendingTranscript();
  run.pendingTranscript = undefined;
}

export function abortError(signal: AbortSignal): ToolnexusError {
  const timedOut = signal.reason instanceof DOMException && signal.reason.name === "TimeoutError";
  return new ToolnexusError(
    "aborted",
    timedOut ? "The run was aborted: its timeout passed" : "The run was aborted",
    {
      cause: signal.reason,
    },
  );
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/** Settles with `promise`, or rejects as soon as `signal` aborts, whichever comes first. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    promptTokens: total.promptTokens + (more.promptTokens || 0),
    completionTokens: total.completionTokens + (more.completionTokens || 0),
    totalTokens: total.totalTokens + (more.totalTokens || 0),
  };
}

export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

export function reportMetric(run: RunContext, metric: Metric): void {
  run.metrics?.record(metric);
  if (!run.options.onMetric) return;
  // An observer's bug must not change the outcome of the run it observes.
  try {
    run.options.onMetric(metric);
  } catch {}
}
