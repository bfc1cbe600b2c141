import type { AgentCard } from "@a2a-js/sdk";
import type { Client, RequestOptions } from "@a2a-js/sdk/client";
import type { BackoffPolicy } from "../backoff";
import { ToolnexusError } from "../errors";
import { inboxIdempotencyKey } from "../inbox-wait-for";
import { expandEnvHeaders } from "../mcp/config-file";
import { untilAborted } from "../run-state";
import type { Answer, Request, WaitFor } from "../types";
import { connect, findTask, readTask, sleep, startTask, untilSettled } from "./a2a-peer";
import { answerMessage, declined, outcomeOf } from "./a2a-task";

// A `waitFor` that hands each suspension to another agent over A2A, through the official SDK's
// client: the Request becomes a remote task, and the task's outcome becomes the Answer.

export interface A2AWaitForOptions {
  /** The peer's agent card URL (a URL whose path does not end in `.json` gets the well-known path). */
  agentCardUrl?: string;
  /** The peer's card itself, instead of fetching it. */
  agentCard?: AgentCard;
  /** Sent with every call; `${NAME}` is read from the environment at each call, never logged. */
  headers?: Record<string, string>;
  /** Gives up after this long (as does a request's own `expiresAt`): `{ ok: false, reason: "expired" }`. */
  timeoutMs?: number;
  /** How often the task is read when the peer does not stream, or while it waits on its own people. Default 2000. */
  pollEveryMs?: number;
  /**
   * When the peer asks something itself (`input-required`, `auth-required`). Default `"decline"`:
   * the answer is `{ ok: false, reason: "declined" }` with the peer's question in `data.message`.
   * `"wait"`: keep waiting, since the peer's own people may answer it (a toolnexus app's inbox).
   * A `waitFor`: a nested suspension, its answer is sent back to the peer's task.
   */
  onInputRequired?: "decline" | "wait" | WaitFor;
  /** As `createInboxWaitFor`'s: the same question within one scope is the same remote task. */
  scope?: string;
  /** Every request (card included) goes through it: where a host's outbound-address policy lives. */
  fetch?: typeof fetch;
  /** Stops waiting: the pending `waitFor` rejects with code `aborted`. */
  signal?: AbortSignal;
  /** Between attempts after a failure while following a task. Default 0.5 s doubling to 15 s. */
  backoff?: BackoffPolicy;
}

const DEFAULT_BACKOFF: BackoffPolicy = { firstMs: 500, maxMs: 15_000, jitter: [0.5, 1] };

/** The moment waiting ends: the sooner of `timeoutMs` from now and the request's `expiresAt`. */
function deadlineOf(request: Request, timeoutMs: number | undefined): number | undefined {
  const expires = request.expiresAt ? Date.parse(request.expiresAt) : Number.NaN;
  const limits = [timeoutMs === undefined ? Number.NaN : Date.now() + timeoutMs, expires];
  const finite = limits.filter(Number.isFinite);
  return finite.length > 0 ? Math.min(...finite) : undefined;
}

/**
 * Aborts at `deadline`. A timer longer than about 24.8 days fires at once in Node, so a far
 * deadline is reached in steps.
 */
function abortAt(deadline: number, controller: AbortController): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const step = () => {
    const left = deadline - Date.now();
    if (left <= 0) return controller.abort();
    timer = setTimeout(step, Math.min(left, 2 ** 31 - 1));
  };
  step();
  return () => clearTimeout(timer);
}

export function createA2AWaitFor(options: A2AWaitForOptions): WaitFor {
  if (!options.agentCard && !options.agentCardUrl) {
    throw new ToolnexusError("config:invalid", "createA2AWaitFor needs an agentCardUrl or an agentCard.");
  }
  if (options.agentCardUrl) new URL(options.agentCardUrl); // a malformed URL fails here, not at the first call
  const pollEveryMs = Math.max(10, options.pollEveryMs ?? 2000);
  const onInput = options.onInputRequired ?? "decline";
  let client: Promise<Client> | undefined;

  return async (request) => {
    const deadline = deadlineOf(request, options.timeoutMs);
    const expiry = new AbortController();
    const stopTimer = deadline === undefined ? undefined : abortAt(deadline, expiry);
    const signal = options.signal ? AbortSignal.any([options.signal, expiry.signal]) : expiry.signal;
    // The headers are read afresh for each call, so a rotated token is picked up.
    const call = (): RequestOptions => ({
      signal,
      serviceParameters: expandEnvHeaders(options.headers ?? {}),
    });
    const key = inboxIdempotencyKey(request, options.scope);
    let taskId: string | undefined;
    try {
      client ??= connect(options).catch((error) => {
        client = undefined;
        throw error;
      });
      const peer = await client;
      const streams = (await peer.getAgentCard()).capabilities?.streaming === true;
      const asked = new Set<string>();

      // Found again after a restart (the task's context is the request's key), or sent now.
      const backoff = options.backoff ?? DEFAULT_BACKOFF;
      const found = await findTask(peer, key, call, backoff, signal);
      if (!found) {
        const started = await startTask(peer, request, key, streams, call, (id) => {
          taskId = id;
        });
        if ("answer" in started) return started.answer;
        taskId = started.taskId;
      }
      const id = found?.id ?? taskId!;
      taskId = id;
      let task = found ?? (await readTask(peer, id, call, backoff, signal));
      for (;;) {
        const outcome = outcomeOf(request, task);
        if (outcome.status === "answered") return outcome.answer;
        const waiting = outcome.status === "asking";
        if (waiting && onInput === "decline") {
          return declined(request, "declined", outcome.state, outcome.question.prompt);
        }
        if (waiting && typeof onInput === "function" && !asked.has(outcome.question.id)) {
          asked.add(outcome.question.id);
          // The host is asked once per question; its wait ends at this one's deadline too.
          const answer = await untilAborted(onInput(outcome.question), signal);
          // Refused when the peer's own people answered first: the task is read again below.
          await peer
            .sendMessage(answerMessage(task, { ...answer, id: outcome.question.id }), call())
            .catch(() => {});
        } else if (streams && !waiting) {
          // A stream that ends or breaks without news is not a reason to ask again at once.
          const settled = await untilSettled(peer, task, call).catch(() => false);
          if (!settled) await sleep(pollEveryMs, signal);
        } else {
          await sleep(pollEveryMs, signal);
        }
        task = await readTask(peer, id, call, backoff, signal);
      }
    } catch (error) {
      if (expiry.signal.aborted && !options.signal?.aborted) {
        // Nobody waits any longer, so the peer need not either.
        if (taskId && client) {
          const peer = await client;
          const stop = {
            serviceParameters: expandEnvHeaders(options.headers ?? {}),
            signal: AbortSignal.timeout(5000),
          };
          await peer.cancelTask({ tenant: "", id: taskId, metadata: undefined }, stop).catch(() => {});
        }
        return { id: request.id, ok: false, reason: "expired" } satisfies Answer;
      }
      if (options.signal?.aborted) {
        throw new ToolnexusError("aborted", "Waiting for the other agent's answer was aborted.", {
          cause: error,
        });
      }
      // The SDK's messages name the URL and the status, never the headers sent.
      const said = error instanceof Error ? error.message : String(error);
      throw new ToolnexusError("provider:http", `The other agent could not be asked: ${said}`, {
        cause: error,
      });
    } finally {
      stopTimer?.();
    }
  };
}
