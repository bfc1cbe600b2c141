import type { AnthropicToolSchema, OpenAiToolSchema } from "./adapters";
import type { AskOptions, ConversationOptions, ConversationStore } from "./conversations";

// Wire shapes of the suspension contract (docs/suspension-contract.md). Keys are fixed across ports: never rename them.

/** What a suspended tool call waits on. Absent optionals are omitted, never null. */
export interface Request {
  id: string;
  kind: string;
  prompt: string;
  url?: string;
  data?: Record<string, unknown>;
  expiresAt?: string;
}

export type DeclineReason = "declined" | "cancelled" | "expired";

/** The resolution of a Request; `id` echoes `Request.id`. `reason` only when `ok` is false. */
export interface Answer {
  id: string;
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: DeclineReason;
}

export interface ToolResult {
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
}

export interface Context {
  /**
   * Present on the retry after a suspension was answered: always with `ok: true`, and with
   * `ok: false` too for a suspension its tool marked `resumeOnDecline`.
   */
  answer?: Answer;
  /** The request `answer` answers (as the tool returned it), present whenever `answer` is. */
  request?: Request;
  signal?: AbortSignal;
  /** Milliseconds the tool may take, when its host set a limit. */
  timeout?: number;
  /** Stable across retries and process restarts: `<runId>:<toolCallId>`. */
  idempotencyKey?: string;
}

export type JsonSchema = Record<string, unknown>;

/** MCP's tool annotations: hints about behaviour, kept on the tool for hosts (never trusted blindly). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** `native`, `builtin`, `mcp` (a connected MCP server's tool) or any other origin a host names. */
  source: string;
  /** For a tool of an MCP server (`source: "mcp"`): that server's name in the config. */
  server?: string;
  annotations?: ToolAnnotations;
  execute(args: Record<string, unknown>, ctx?: Context): Promise<ToolResult>;
}

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

// ---- The provider-neutral transcript -------------------------------------------------

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments; `{}` when the model sent none. */
  args: Record<string, unknown>;
  /** Set when the model's argument text was not a JSON object: the call is fed back as an error. */
  invalidArgs?: string;
}

export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  args: Record<string, unknown>;
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
}

export type RunStatus = "done" | "pending" | "incomplete";

/** The provider's wire shape a client's `RunResult.messages` follows (see `LoopOptions.messageFormat`). */
export type MessageFormat = "openai" | "anthropic";

/** One message as the provider's API spells it (an OpenAI chat message, an Anthropic message). */
export type ProviderMessage = Record<string, unknown>;

/** One tool declaration as the provider's API spells it. */
export type ProviderTool = OpenAiToolSchema | AnthropicToolSchema;

export interface RunResult {
  status: RunStatus;
  text: string;
  /** The run's messages in the provider's format (`LoopOptions.messageFormat`), as the reference port keeps them. */
  messages: ProviderMessage[];
  /**
   * The same run in this library's provider-neutral shape: what checkpoints hold, what `history`
   * and conversation stores take, and what a host stores.
   */
  transcript: Message[];
  toolCalls: ToolCallRecord[];
  toolCallCount: number;
  turns: number;
  usage: Usage;
  model: string;
  /** The first suspension of the halted turn, in tool-call order. */
  pending?: Request;
  /** Every suspension of the halted turn, in tool-call order (`pending === suspended[0]`). */
  suspended?: Request[];
  /** Plain JSON; hand it to `client.resume` in any process. Present when status is "pending". */
  checkpoint?: Checkpoint;
  limit?: "maxTurns";
}

export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "tool_call"; id: string; name: string; args: Record<string, unknown> }
  | { type: "pending"; request: Request }
  | { type: "tool_result"; id: string; name: string; output: string; isError: boolean }
  | { type: "usage"; usage: Usage }
  | { type: "done"; result: RunResult };

// ---- Model drivers: what the loop talks to ---------------------------------------------

export interface ModelInput {
  model: string;
  system?: string;
  messages: Message[];
  tools: ToolSpec[];
  signal?: AbortSignal;
}

/** One assistant turn, whatever the wire format. */
export interface ModelTurn {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason?: string;
}

export type ModelStreamPart = { type: "text"; delta: string } | { type: "turn"; turn: ModelTurn };

/**
 * The loop's only view of a model. HTTP wire styles, the AI SDK bridge and in-process
 * functions all implement it; `stream` must end with exactly one `turn` part.
 */
export interface ModelDriver {
  readonly model: string;
  generate(input: ModelInput): Promise<ModelTurn>;
  stream(input: ModelInput): AsyncIterable<ModelStreamPart>;
}

// ---- Checkpoints: the durable state of a run ------------------------------------------------

export type SlotState =
  | { status: "queued" }
  | { status: "done"; result: ToolResult }
  | { status: "suspended"; request: Request; resumeOnDecline?: true };

export interface ToolSlot {
  call: ToolCall;
  state: SlotState;
}

/**
 * A run frozen at a safe point: either between turns (`slots` empty: the next step is a
 * model call) or inside a turn whose assistant message is the last in `messages`.
 * JSON-serializable; `digest` detects tampering. It is digested in two levels:
 * `transcriptDigest` is the SHA-256 of the messages as one canonical JSON array, and `digest`
 * covers everything else, that included, so the rest can be verified before the transcript is
 * at hand (`DeferredCheckpoint`). A checkpoint made by an earlier release (`version` 1, one
 * digest over the whole) is still taken wherever a Checkpoint is: it is upgraded to this form as
 * it is read (`checkpoint-upgrade.ts`).
 */
export interface Checkpoint {
  version: 2;
  runId: string;
  model: string;
  messages: Message[];
  slots: ToolSlot[];
  toolCalls: ToolCallRecord[];
  turns: number;
  usage: Usage;
  /** `sha256:<hex>` of `[` + the messages' canonical texts joined by "," + `]`. */
  transcriptDigest: string;
  digest: string;
}

/**
 * A checkpoint whose host keeps the transcript apart and reads it only when asked:
 * `loadTranscript` gives the canonical JSON texts of its messages (`canonicalJson`, one per
 * message) joined by ",". `client.resume` verifies everything else at once, so a changed call,
 * request or answer is still refused before anything runs, and asks for the transcript right
 * after the resumed turn's first tool was called (or when a safe point needs it first): the
 * tool a person was waiting on runs without waiting for a long conversation to be read and
 * checked. The transcript is checked, as the text stands, before any safe point is taken and
 * before the model sees it; one that does not match fails the run (`checkpoint:tampered`) after
 * the answered calls ran, which is what a host accepts by handing it over this way.
 */
export type DeferredCheckpoint = Omit<Checkpoint, "messages"> & {
  loadTranscript: () => Promise<string>;
};

/** Every form `client.resume` takes a checkpoint in. */
export type ResumableCheckpoint = Checkpoint | DeferredCheckpoint;

// ---- Client options ---------------------------------------------------------------------------

/**
 * What `onMetric` hears, one readable record per model call, tool call and run (the `run` record
 * comes last). The same records feed `client.metrics()`. A suspension is `pending: true` and
 * never an error. `attempt` (which execution of one tool call this was: 1, then 2 for the retry
 * after an answer) is this library's addition.
 */
export type Metric =
  | {
      event: "llm";
      model: string;
      status: "ok" | "error";
      ms: number;
      promptTokens: number;
      completionTokens: number;
    }
  | {
      event: "tool";
      tool: string;
      source: string;
      isError: boolean;
      ms: number;
      pending?: true;
      attempt: number;
    }
  | {
      event: "run";
      model: string;
      turns: number;
      toolCalls: number;
      totalTokens: number;
      ms: number;
      error?: string;
    };

/** What `beforeTool` may return: `result` skips the tool (a pending one suspends), `args` rewrites. */
export interface BeforeToolOverride {
  args?: Record<string, unknown>;
  result?: ToolResult;
}

type Awaitable<T> = T | Promise<T>;

/** Lifecycle hooks around the loop; each may be async. `turn` counts model calls from 0. */
export interface Hooks {
  /**
   * Before each model call, with the messages and tools in the provider's format (as
   * `RunResult.messages`). Returned `messages`/`tools` (in that format or this library's)
   * replace the run's own, for later turns too.
   */
  beforeLLM?: (event: {
    messages: ProviderMessage[];
    tools: ProviderTool[];
    model: string;
    turn: number;
  }) => Awaitable<
    undefined | { messages?: Array<Message | ProviderMessage>; tools?: Array<ToolSpec | ProviderTool> }
  >;
  /** After each model call, with the turn the model produced. */
  afterLLM?: (event: { response: ModelTurn; model: string; turn: number }) => Awaitable<void>;
  /**
   * Before a tool runs (not before the retry after an answer: that call was already let through).
   * `call` and `ctx` are this library's additions.
   */
  beforeTool?: (event: {
    name: string;
    args: Record<string, unknown>;
    id: string;
    turn: number;
    call: ToolCall;
    ctx: Context;
  }) => Awaitable<undefined | BeforeToolOverride>;
  /** After a tool ran, on resolved results only, never on a suspension. `{ result }` replaces it. */
  afterTool?: (event: {
    name: string;
    args: Record<string, unknown>;
    result: ToolResult;
    id: string;
    turn: number;
  }) => Awaitable<undefined | { result?: ToolResult }>;
}

export type WaitFor = (request: Request) => Promise<Answer>;

export interface LoopOptions {
  /** Where `ask` and `stream({ id })` keep conversations; in memory by default. */
  store?: ConversationStore;
  /** A deadline for each whole run (or resume) in milliseconds: past it, the run is aborted. */
  timeoutMs?: number;
  systemPrompt?: string;
  maxTurns?: number;
  waitFor?: WaitFor;
  hooks?: Hooks;
  onMetric?: (metric: Metric) => void;
  /** Text fed back for a declined/expired answer; default `declined/expired: <prompt>`. */
  formatDecline?: (request: Request, answer: Answer | undefined) => string;
  /** HMAC key for checkpoint digests; without it the digest is a plain SHA-256. */
  checkpointKey?: string;
  /** The format of `RunResult.messages`; "openai" unless the client speaks Anthropic's style. */
  messageFormat?: MessageFormat;
}

export interface ToolkitLike {
  specs(): ToolSpec[];
  /** The tool behind a name; a toolkit without it reports its tools' source as "custom". */
  get?(name: string): Tool | undefined;
  has(name: string): boolean;
  execute(name: string, args: Record<string, unknown>, ctx?: Context): Promise<ToolResult>;
}

/**
 * Where a safe point stands in the run's event stream: `events` is how many events (of this run
 * or resume) came before it. A host that stores events and checkpoints together stores the
 * first `events` with this checkpoint; later ones may already have arrived, and they belong to
 * a later state.
 */
export interface SafePoint {
  events: number;
}

export interface RunOptions {
  toolkit?: ToolkitLike;
  /** Earlier messages: this library's transcript or a provider's (`RunResult.messages`). */
  history?: Array<Message | ProviderMessage>;
  signal?: AbortSignal;
  /** Names the run for idempotency keys; generated when absent. */
  runId?: string;
  /** Awaited at every safe point, so a host can persist progress before the loop goes on. */
  onCheckpoint?: (checkpoint: Checkpoint, at: SafePoint) => void | Promise<void>;
}

export interface ResumeOptions {
  toolkit?: ToolkitLike;
  signal?: AbortSignal;
  onCheckpoint?: (checkpoint: Checkpoint, at: SafePoint) => void | Promise<void>;
}

export interface Client {
  readonly model: string;
  /**
   * `run`, remembering the conversation named `id` in the client's store (none: a one-off run);
   * with `on_text` it streams the text as it comes and still returns the whole result.
   */
  ask(prompt: string, options?: AskOptions): Promise<RunResult>;
  /** The store `ask` and `stream({ id })` use: the one given as `store`, else an in-memory one. */
  conversationStore(): ConversationStore;
  /** Prometheus text of everything this client did so far (valid, with no samples, before any). */
  metrics(): string;
  run(prompt: string, options?: RunOptions): Promise<RunResult>;
  /** With an `id`, the conversation's transcript is read first and kept once the run is done. */
  stream(prompt: string, options?: ConversationOptions): AsyncIterable<StreamEvent>;
  resume(
    checkpoint: ResumableCheckpoint,
    answers: Answer | Answer[],
    options?: ResumeOptions,
  ): Promise<RunResult>;
  resumeStream(
    checkpoint: ResumableCheckpoint,
    answers: Answer | Answer[],
    options?: ResumeOptions,
  ): AsyncIterable<StreamEvent>;
}
