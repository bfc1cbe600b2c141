import type { DbClient } from "@/lib/db/db-types";
import type { BareRequest, StoredRequest } from "@/lib/db/requests";
import type { EscalationStep } from "@/lib/domain/escalation";
import type { ThreadEvent } from "@/lib/domain/events";
import type { Actor } from "@/lib/domain/roles";
import type { Client, Request, ToolkitLike } from "@/lib/toolnexus/types";
import type { AnswerPolicy } from "./answer-policy";
import type { EventBus } from "./event-bus";
import type { CommitOutcome, HeldDecision } from "./held-decisions";
import type { ReadRequest } from "./read-request";

import type { SubscribeInput } from "./subscribe-thread";

export interface ToolkitContext {
  userId: string;
  runId: string;
  threadId: string;
}

/** A toolkit may hold resources (MCP connections, …); `close` is awaited when a segment ends. */
export type EngineToolkit = ToolkitLike & { close?: () => void | Promise<void> };

export interface EngineOptions {
  db: DbClient;
  /** A fresh client per run segment; models are stateless between calls. */
  createClient: () => Client;
  createToolkit: (ctx: ToolkitContext) => EngineToolkit | Promise<EngineToolkit>;
  bus: EventBus;
  /** Names this process in run leases; unique per process. */
  instanceId: string;
  /** How long a run stays ours without renewal (renewed every third of it). Default 3 s. */
  leaseMs?: number;
  policy?: AnswerPolicy;
  /** How often `start()` sweeps for expired requests. Default 1 s. */
  expiryIntervalMs?: number;
  /** How long a reviewer's decision can be undone before it commits (default: holdDurationMs()). */
  holdMs?: number;
  /** How often `start()` looks for runs nobody is driving while any run is live. Default 1 s. */
  recoveryIntervalMs?: number;
  /** The same when nothing runs anywhere and the bus is quiet. Default 15 s. */
  idleRecoveryIntervalMs?: number;
  /** How long `stop()` lets aborted segments wind down before releasing their leases. Default 2 s. */
  stopGraceMs?: number;
  /**
   * How long a Stop refused because an answered call has started lets that call run before it
   * ends the run anyway, discarding what the call returns later (ADR 0101). Default 30 s.
   */
  stoppedCallGraceMs?: number;
  /** How long assistant text is gathered into one event. Default 30 ms. */
  textFlushMs?: number;
}

/**
 * What someone decides about a parked request, before the engine turns it into the wire Answer.
 * `expired` and `cancelled` are the system's, so a submitted decline is always "declined".
 */
export interface SubmittedAnswer {
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: "declined";
}

/**
 * One answer to one request, from whichever way it arrived (a form, the OAuth callback, …).
 * Callers parse their own transport; the engine reads the request once and checks the rest.
 */
export interface AnswerInput {
  requestId: string;
  actor: Actor;
  /**
   * The decision, or how to make it from the request as stored (a bulk approval approves what
   * the form would show). A function runs after the policy and expiry checks, before the
   * schema check, and may throw an AppError to refuse.
   */
  answer: SubmittedAnswer | ((request: BareRequest) => SubmittedAnswer);
  /**
   * Who vouches for the answer. Only the OAuth callback, which has seen the provider's consent,
   * may accept a sign-in (ADR 0012); everyone else can only decline one.
   */
  via?: "person" | "oauth_callback";
}

/** An approval addressed to an approver group, by its slug, and how many members must approve. */
export interface GroupAudience {
  group: string;
  required: number;
}

/** A request made through the HTTP API, with no run behind it (ADR 0034). */
export interface NewStandaloneRequest {
  /** The token's owner: the request is theirs, and "owner" requests are theirs to answer. */
  owner: Actor;
  apiTokenId: string;
  request: Omit<Request, "id">;
  /**
   * Who must answer; by default the same policy as a tool's request of that kind. A group's
   * members vote until `required` of them, never the owner, approve (ADR 0076).
   */
  audience?: "owner" | "reviewers" | GroupAudience;
  /** Its escalation ladder (ADR 0093), checked by the caller; only for reviewers or a group. */
  escalation?: EscalationStep[];
  idempotencyKey: string | null;
  /**
   * SHA-256 of the create's normalised body without its audience: a key used again must come
   * with the same one, and with the same audience once the default is applied.
   */
  createHash: string;
}

export interface Engine {
  /** Resolves once the run and the user's message are stored; the loop goes on in the background. */
  startRun(input: {
    threadId: string;
    userId: string;
    message: string;
    /** An A2A client's messageId, unique per user: starting twice with it throws (ADR 0085). */
    clientMessageId?: string;
  }): Promise<{ runId: string }>;
  /** The one way to answer a request: exists, may answer, still open, in time, fits its schema, claimed. */
  answerRequest(input: AnswerInput): Promise<{ request: StoredRequest }>;
  /**
   * A decision checked as `answerRequest` checks it, then held until `commitAt` so it can be
   * undone (ADR 0080); it commits through `answerRequest` by `commitDecision` or the sweep.
   */
  holdDecision(input: Pick<AnswerInput, "requestId" | "actor" | "answer">): Promise<HeldDecision>;
  /** Undoes the actor's own held decision; `conflict:decision_committed` once it is committing. */
  undoDecision(input: { heldId: string; actor: Actor }): Promise<{ requestId: string }>;
  /** Commits a held decision now if it is due; `not_due` when early or already being committed. */
  commitDecision(heldId: string): Promise<CommitOutcome>;
  /** Commits every due held decision (the engine's sweep does so each second); returns how many. */
  commitDueDecisions(): Promise<number>;
  cancelRun(input: { runId: string; actor: Actor }): Promise<void>;
  /** Makes a request with no run, or returns the one its Idempotency-Key already made. */
  createRequest(input: NewStandaloneRequest): Promise<{ request: StoredRequest; replayed: boolean }>;
  /** One of the owner's API requests, expired first if its time is up. */
  readOwnRequest(input: { requestId: string; ownerId: string }): Promise<StoredRequest>;
  /** The same once it has left "open", or once `timeoutMs` has passed. */
  waitForRequest(input: {
    requestId: string;
    ownerId: string;
    timeoutMs: number;
    signal?: AbortSignal;
  }): Promise<StoredRequest>;
  /** The owner withdraws one of their open API requests. */
  cancelRequest(input: { requestId: string; ownerId: string }): Promise<StoredRequest>;
  /** Answers every due request `{ ok: false, reason: "expired" }`; returns how many. */
  expireDueRequests(): Promise<number>;
  /** Fires every due escalation step once, across instances (ADR 0093); returns how many here. */
  escalateDueRequests(): Promise<number>;
  /** A request as `actor` may see it, expired first if its time is up. */
  readRequest(input: { requestId: string; actor: Actor }): Promise<ReadRequest>;
  /** Whether `actor` may answer this request, by the same policy `answerRequest` enforces. */
  mayAnswer(input: { actor: Actor; request: Pick<StoredRequest, "audience" | "ownerId"> }): boolean;
  /** Takes over runs nobody is driving; returns how many. */
  recoverRuns(): Promise<number>;
  /**
   * Ends every run whose refused Stop is due while its answered calls still run, once across
   * instances (ADR 0101; the engine's sweep does so each second); returns how many ended here.
   */
  stopOverdueRuns(): Promise<number>;
  subscribe(input: SubscribeInput): AsyncIterable<ThreadEvent>;
  /** Settles when every run segment this process is driving has stopped (tests, shutdown). */
  idle(): Promise<void>;
  /** Whether `start()` has run and `stop()` has not: the timers (expiry, takeover, renewal) are on. */
  isRunning(): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}
