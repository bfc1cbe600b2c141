import { randomUUID } from "node:crypto";
import { linkAbort } from "./abort-link";
import { createTranscriptCache, verifyCheckpoint } from "./checkpoint";
import { InMemoryConversationStore, withConversations } from "./conversations";
import { ToolnexusError } from "./errors";
import { createEventChannel } from "./event-channel";
import { MetricsRegistry } from "./metrics";
import { toTranscript } from "./provider-history";
import { runDeadline } from "./run-deadline";
import { runLoop } from "./run-loop";
import { emptyUsage, type RunContext, type RunState } from "./run-state";
import type {
  Answer,
  Checkpoint,
  Client,
  LoopOptions,
  Message,
  ModelDriver,
  ResumableCheckpoint,
  ResumeOptions,
  RunOptions,
  RunResult,
  StreamEvent,
} from "./types";

const REASONS = new Set(["declined", "cancelled", "expired"]);

function checkAnswer(value: unknown): Answer {
  const answer = value as Answer;
  const valid =
    typeof answer === "object" &&
    answer !== null &&
    typeof answer.id === "string" &&
    typeof answer.ok === "boolean" &&
    (answer.data === undefined || (typeof answer.data === "object" && answer.data !== null)) &&
    (answer.reason === undefined || REASONS.has(answer.reason));
  if (!valid) throw new ToolnexusError("answer:invalid", "An answer needs a string id and a boolean ok");
  return answer;
}

/** Matches answers to the checkpoint's parked requests; any mismatch refuses the whole resume. */
function matchAnswers(checkpoint: Checkpoint, answers: Answer | Answer[]): Map<string, Answer> {
  const parked = new Set<string>();
  for (const slot of checkpoint.slots)
    if (slot.state.status === "suspended") parked.add(slot.state.request.id);
  const matched = new Map<string, Answer>();
  for (const raw of Array.isArray(answers) ? answers : [answers]) {
    const answer = checkAnswer(raw);
    if (!parked.has(answer.id)) {
      throw new ToolnexusError("answer:unknown_id", `No parked request has id "${answer.id}"`);
    }
    if (matched.has(answer.id)) {
      throw new ToolnexusError("answer:invalid", `Request "${answer.id}" was answered twice`);
    }
    matched.set(answer.id, answer);
  }
  return matched;
}

type Start = (
  signal: AbortSignal | undefined,
  emit: RunContext["emit"],
  streaming: boolean,
  delivered?: RunContext["delivered"],
) => Promise<RunResult>;

/** Runs `start` with events flowing out as an async iterator; leaving the loop early aborts the run. */
async function* streamOf(start: Start, outer: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
  const channel = createEventChannel<StreamEvent>();
  const { controller: stop, release } = linkAbort(outer);
  start(stop.signal, channel.push, true, channel.taken).then(
    (result) => {
      channel.push({ type: "done", result });
      channel.close();
    },
    (error: unknown) => channel.close(error ?? new Error("The run failed")),
  );
  try {
    yield* channel;
  } finally {
    stop.abort();
    release();
  }
}

const ignore = () => {};

/** The run's own state from a verified checkpoint (what the loop mutates). */
function stateOf(verified: Checkpoint): RunState {
  const {
    digest: _digest,
    version: _version,
    model: _model,
    transcriptDigest: _transcript,
    ...state
  } = verified;
  return state;
}

/** The toolnexus loop around any ModelDriver: HTTP wire styles, the AI SDK bridge, a function. */
export function createClientFromDriver(driver: ModelDriver, options: LoopOptions = {}): Client {
  const metrics = new MetricsRegistry();
  const bounded = runDeadline(options.timeoutMs);
  const fresh = (prompt: string, opts: RunOptions): Start => {
    // async: a history it cannot read rejects the run like any other failure.
    return async (signal, emit, streaming, delivered) => {
      const history = opts.history ? toTranscript(opts.history, options.systemPrompt) : [];
      const messages: Message[] = [...history, { role: "user", content: prompt }];
      const state: RunState = {
        runId: opts.runId ?? `run-${randomUUID()}`,
        messages,
        slots: [],
        toolCalls: [],
        turns: 0,
        usage: emptyUsage(),
      };
      return runLoop(context(state, opts, signal, emit, streaming, delivered));
    };
  };

  // Everything is verified before anything runs, so a refused resume has no effects at all;
  // only a `DeferredCheckpoint`'s transcript is read and verified later, once the answered calls
  // have started (see `DeferredCheckpoint`).
  const resumed = (
    checkpoint: ResumableCheckpoint,
    answers: Answer | Answer[],
    opts: ResumeOptions,
  ): Start => {
    return async (signal, emit, streaming, delivered) => {
      const transcript = createTranscriptCache();
      const verified = await verifyCheckpoint(checkpoint, options.checkpointKey, transcript);
      const matched = matchAnswers(verified.checkpoint, answers);
      const state = stateOf(verified.checkpoint);
      const run = context(state, opts, signal, emit, streaming, delivered);
      run.transcript = transcript;
      if (verified.status === "transcript-pending") {
        // Started by the first call the resumed turn makes (right after the tool itself has
        // been called, so a host whose read is synchronous, an embedded database, does not hold
        // it up), or by whatever needs the transcript first; read and verified once.
        let verifiedTranscript: Promise<void> | undefined;
        run.pendingTranscript = () => {
          verifiedTranscript ??= Promise.resolve()
            .then(verified.transcript)
            .then((messages) => {
              state.messages = messages;
            });
          // Awaited where it is needed; this only keeps one that failed unseen from going unhandled.
          verifiedTranscript.catch(() => {});
          return verifiedTranscript;
        };
      }
      return runLoop(run, matched);
    };
  };

  const context = (
    state: RunState,
    opts: RunOptions | ResumeOptions,
    signal: AbortSignal | undefined,
    emit: RunContext["emit"],
    streaming: boolean,
    delivered?: RunContext["delivered"],
  ): RunContext => {
    const run: RunContext = {
      driver,
      options,
      state,
      streaming,
      // Counted so a safe point can say how many events precede it (see `SafePoint`).
      emit: (event) => {
        run.emitted += 1;
        emit(event);
      },
      emitted: 0,
      persisted: Promise.resolve(),
      metrics,
      started: performance.now(),
    };
    if (opts.toolkit) run.toolkit = opts.toolkit;
    if (signal) run.signal = signal;
    if (opts.onCheckpoint) run.onCheckpoint = opts.onCheckpoint;
    if (delivered) run.delivered = delivered;
    return run;
  };

  const conversations = withConversations(
    {
      run: (prompt, opts = {}) => fresh(prompt, opts)(bounded(opts.signal), ignore, false),
      stream: (prompt, opts = {}) => streamOf(fresh(prompt, opts), bounded(opts.signal)),
    },
    options.store ?? new InMemoryConversationStore(),
  );
  return {
    model: driver.model,
    metrics: () => metrics.render(),
    run: (prompt, opts = {}) => fresh(prompt, opts)(bounded(opts.signal), ignore, false),
    stream: conversations.stream,
    ask: conversations.ask,
    conversationStore: conversations.conversationStore,
    async resume(checkpoint, answers, opts = {}) {
      return resumed(checkpoint, answers, opts)(bounded(opts.signal), ignore, false);
    },
    resumeStream(checkpoint, answers, opts = {}) {
      // Checkpoint and answer errors surface on the first next(), like any other stream failure.
      return (async function* () {
        yield* streamOf(resumed(checkpoint, answers, opts), bounded(opts.signal));
      })();
    },
  };
}
