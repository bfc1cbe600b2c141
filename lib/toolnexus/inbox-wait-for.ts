import { createHash } from "node:crypto";
import { type BackoffPolicy, backoffDelayMs } from "./backoff";
import { canonicalJson } from "./checkpoint";
import { ToolnexusError } from "./errors";
import type { Answer, Request, WaitFor } from "./types";

// A `waitFor` backed by a toolnexus inbox's HTTP API (/api/v1): each suspension becomes a
// request there, answered by a person in the web inbox, and the loop gets the answer back. It
// outlives failures on both sides: network drops and inbox restarts are retried with backoff,
// and a restarted agent process finds the request it made before through its Idempotency-Key
// instead of asking twice.

export interface InboxWaitForOptions {
  /** The inbox's origin, e.g. https://inbox.example.com. */
  baseUrl: string;
  /** A personal API token with the requests:write and requests:read scopes. */
  token: string;
  fetch?: typeof fetch;
  /** Who must answer; by default the inbox decides by kind (reviewers approve). */
  audience?: "owner" | "reviewers" | ((request: Request) => "owner" | "reviewers" | undefined);
  /**
   * Names what this process is doing (a job id, a deploy number), so that the same question
   * asked by another job is a new request while the same job, restarted, finds its own again.
   */
  scope?: string;
  /** Replaces the derived Idempotency-Key entirely. */
  idempotencyKey?: (request: Request) => string;
  /** How long one long poll waits, in seconds (the inbox allows up to 60). Default 30. */
  pollSeconds?: number;
  /** Between attempts after a failure. Default 0.5 s doubling to 15 s, with jitter. */
  backoff?: BackoffPolicy;
  /** Stops waiting: the pending `waitFor` rejects with code `aborted`. */
  signal?: AbortSignal;
  /** Told of every failed attempt before the wait that follows it (logging, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

const DEFAULT_BACKOFF: BackoffPolicy = { firstMs: 500, maxMs: 15_000, jitter: [0.5, 1] };
const GENERATED_ID = /^pnd-[0-9a-z]+-\d+$/;

interface InboxRequest {
  id: string;
  status: "open" | "answered" | "expired" | "cancelled";
  answer?: Answer;
}

/**
 * The key a request is made under. A tool that gave its request an id of its own gets that id
 * (stable by the tool's design); a generated id changes when the process restarts, so then the
 * key is a digest of what is asked, within `scope`: kind, prompt, url and data. `expiresAt` is
 * left out, since a restarted tool computes it afresh.
 */
export function inboxIdempotencyKey(request: Request, scope = ""): string {
  const what = GENERATED_ID.test(request.id)
    ? { kind: request.kind, prompt: request.prompt, url: request.url ?? null, data: request.data ?? null }
    : { id: request.id };
  const digest = createHash("sha256")
    .update(canonicalJson({ scope, ...what }))
    .digest("base64url");
  return `toolnexus-${digest}`;
}

class Permanent extends Error {}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", stop, { once: true });
  });
}

function toAnswer(request: Request, found: InboxRequest): Answer {
  const answer: Answer = { id: request.id, ok: found.answer?.ok ?? false };
  if (found.answer?.data !== undefined) answer.data = found.answer.data;
  if (!answer.ok)
    answer.reason = found.answer?.reason ?? (found.status === "cancelled" ? "cancelled" : "expired");
  return answer;
}

export function createInboxWaitFor(options: InboxWaitForOptions): WaitFor {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  const pollSeconds = Math.min(60, Math.max(1, options.pollSeconds ?? 30));
  const policy = options.backoff ?? DEFAULT_BACKOFF;

  async function call(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<InboxRequest> {
    // A silently dropped connection must not hang the wait: each call ends a little after the
    // longest the inbox would hold it.
    const limit = AbortSignal.timeout((pollSeconds + 15) * 1000);
    const signal = options.signal ? AbortSignal.any([options.signal, limit]) : limit;
    const response = await doFetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.token}`,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(key ? { "idempotency-key": key } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as InboxRequest;
    const error = (() => {
      try {
        return JSON.parse(text) as { code?: string; message?: string };
      } catch {
        return {};
      }
    })();
    const message = `The inbox refused ${method} ${path} (${response.status}${error.code ? ` ${error.code}` : ""}): ${error.message ?? text.slice(0, 200)}`;
    const retryAfter = Number(response.headers.get("retry-after"));
    const failure = new ToolnexusError("provider:http", message, {
      status: response.status,
      body: text.slice(0, 500),
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    });
    // Asking again cannot fix a refusal of the request itself (its body, the token, its scope).
    if (response.status < 500 && response.status !== 408 && response.status !== 429) {
      throw new Permanent(message, { cause: failure });
    }
    throw failure;
  }

  return async (request) => {
    const audience = typeof options.audience === "function" ? options.audience(request) : options.audience;
    const body = {
      kind: request.kind,
      prompt: request.prompt,
      ...(request.url !== undefined ? { url: request.url } : {}),
      ...(request.data !== undefined ? { data: request.data } : {}),
      ...(request.expiresAt !== undefined ? { expiresAt: request.expiresAt } : {}),
      ...(audience ? { audience } : {}),
    };
    const key = options.idempotencyKey?.(request) ?? inboxIdempotencyKey(request, options.scope);
    let inboxId: string | undefined;
    let failures = 0;
    for (;;) {
      try {
        const found = inboxId
          ? await call("GET", `/api/v1/requests/${encodeURIComponent(inboxId)}?wait=${pollSeconds}`)
          : await call("POST", "/api/v1/requests", body, key);
        inboxId = found.id;
        failures = 0;
        if (found.status !== "open") return toAnswer(request, found);
      } catch (error) {
        if (options.signal?.aborted) {
          throw new ToolnexusError("aborted", "Waiting for the inbox's answer was aborted.", {
            cause: error,
          });
        }
        if (error instanceof Permanent) throw error.cause;
        const asked = error instanceof ToolnexusError ? error.retryAfterMs : undefined;
        const delayMs = Math.max(asked ?? 0, backoffDelayMs(policy, failures));
        failures += 1;
        options.onRetry?.({ attempt: failures, delayMs, error });
        try {
          await sleep(delayMs, options.signal);
        } catch (aborted) {
          throw new ToolnexusError("aborted", "Waiting for the inbox's answer was aborted.", {
            cause: aborted,
          });
        }
      }
    }
  };
}
