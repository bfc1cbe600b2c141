import { ToolnexusError } from "../../errors";

export interface FetchWithRetryOptions {
  url: string;
  init: Omit<RequestInit, "signal">;
  fetch: typeof fetch;
  retries: number;
  retryBaseMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Replaceable so tests can observe the chosen delays without waiting for them. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/**
 * A successful (2xx) response whose attempt is still live: its timeout keeps running and the
 * caller's signal still aborts it until `close()`.
 */
export interface OpenResponse {
  response: Response;
  /** Aborted on timeout or caller abort; its reason is the ToolnexusError to surface. */
  signal: AbortSignal;
  /** Restarts the timeout clock, so a stream is bounded by its idle gaps, not its length. */
  refresh(): void;
  /** Settles like `promise`, or rejects as soon as the attempt aborts, whichever comes first. */
  guard<T>(promise: Promise<T>): Promise<T>;
  /** Maps anything thrown while reading the body to the ToolnexusError the caller should see. */
  fail(error: unknown): ToolnexusError;
  close(): void;
}

const BODY_EXCERPT_CHARS = 500;
const MAX_BACKOFF_MS = 30_000;
// A server asking for a longer pause than this is better reported than waited on.
const MAX_RETRY_AFTER_MS = 60_000;

export async function fetchWithRetry(options: FetchWithRetryOptions): Promise<OpenResponse> {
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw abortedError(options.signal);
    const live = startAttempt(options.timeoutMs, options.signal);
    let response: Response;
    try {
      response = await untilAborted(
        options.fetch(options.url, { ...options.init, signal: live.signal }),
        live,
      );
    } catch (error) {
      const failure = live.fail(error);
      live.close();
      if (failure.code === "provider:network" && attempt < options.retries) {
        await sleep(backoffMs(options.retryBaseMs, attempt, random), options.signal);
        continue;
      }
      throw failure;
    }

    if (response.ok) return live.open(response);

    let excerpt: string;
    try {
      excerpt = await untilAborted(readExcerpt(response), live);
    } catch (error) {
      const failure = live.fail(error);
      live.close();
      if (failure.code !== "provider:network") throw failure;
      excerpt = "";
    }
    live.close();
    const failure = new ToolnexusError(
      "provider:http",
      `Provider responded with HTTP ${response.status}${excerpt ? `: ${excerpt}` : ""}`,
      { status: response.status, body: excerpt },
    );
    if (!isRetryableStatus(response.status) || attempt >= options.retries) throw failure;
    const retryAfter = retryAfterMs(response.headers.get("retry-after"));
    if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) throw failure;
    await sleep(retryAfter ?? backoffMs(options.retryBaseMs, attempt, random), options.signal);
  }
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Exponential growth with "equal jitter": half the step is fixed, half random, so bursts spread. */
export function backoffMs(baseMs: number, attempt: number, random: () => number = Math.random): number {
  const step = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return Math.round(step / 2 + (random() * step) / 2);
}

/** Only the delta-seconds form; an HTTP-date falls back to our own backoff. */
export function retryAfterMs(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+(\.\d+)?\s*$/.test(header)) return undefined;
  return Math.round(Number(header) * 1000);
}

interface Attempt {
  signal: AbortSignal;
  fail(error: unknown): ToolnexusError;
  open(response: Response): OpenResponse;
  close(): void;
}

function startAttempt(timeoutMs: number, callerSignal: AbortSignal | undefined): Attempt {
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(abortedError(callerSignal));
  const onTimeout = () =>
    controller.abort(new ToolnexusError("timeout", `The model call timed out after ${timeoutMs} ms`));

  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(onTimeout, timeoutMs);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

  const close = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    callerSignal?.removeEventListener("abort", onCallerAbort);
  };
  const fail = (error: unknown): ToolnexusError => {
    if (controller.signal.aborted) return controller.signal.reason as ToolnexusError;
    if (error instanceof ToolnexusError) return error;
    const detail = error instanceof Error ? error.message : String(error);
    return new ToolnexusError("provider:network", `Could not reach the model provider: ${detail}`, {
      cause: error,
    });
  };
  return {
    signal: controller.signal,
    fail,
    close,
    open: (response) => ({
      response,
      signal: controller.signal,
      fail,
      close,
      guard: (promise) => untilAborted(promise, controller),
      refresh: () => {
        if (timer === undefined) return;
        clearTimeout(timer);
        timer = setTimeout(onTimeout, timeoutMs);
      },
    }),
  };
}

/** Rejects as soon as the attempt aborts, even if an injected fetch ignores its signal. */
function untilAborted<T>(promise: Promise<T>, attempt: Pick<Attempt, "signal">): Promise<T> {
  const { signal } = attempt;
  if (signal.aborted) {
    // The abort wins; the loser's own rejection must not surface as unhandled.
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < BODY_EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.trim().slice(0, BODY_EXCERPT_CHARS);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function abortedError(signal: AbortSignal | undefined): ToolnexusError {
  return new ToolnexusError("aborted", "The model call was aborted", { cause: signal?.reason });
}
