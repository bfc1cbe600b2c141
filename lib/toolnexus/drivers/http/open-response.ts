import { ToolnexusError } from "../../errors";
import { retryAfterMs } from "../with-retries";

export interface OpenResponseOptions {
  url: string;
  init: Omit<RequestInit, "signal">;
  fetch: typeof fetch;
  /**
   * Whether `fetch` stops the request and its body as soon as its signal aborts, as the
   * platform's does. Otherwise (an injected fetch may not) every wait is also raced against the
   * abort, which costs a promise and a listener per wait: the loop's hot path skips it.
   */
  honoursSignal?: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
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

/**
 * One attempt at a provider call, bounded by `timeoutMs`. Anything but a 2xx becomes a
 * `provider:http` error carrying the status, a body excerpt and the Retry-After the provider
 * sent; whether to try again is decided by the caller (see `withRetries`).
 */
export async function openResponse(options: OpenResponseOptions): Promise<OpenResponse> {
  if (options.signal?.aborted) throw abortedError(options.signal);
  const live = startAttempt(options.timeoutMs, options.signal, options.honoursSignal === true);
  let response: Response;
  try {
    response = await live.guard(options.fetch(options.url, { ...options.init, signal: live.signal }));
  } catch (error) {
    const failure = live.fail(error);
    live.close();
    throw failure;
  }

  if (response.ok) return live.open(response);

  let excerpt: string;
  try {
    excerpt = await live.guard(readExcerpt(response));
  } catch (error) {
    const failure = live.fail(error);
    live.close();
    if (failure.code !== "provider:network") throw failure;
    excerpt = "";
  }
  live.close();
  const retryAfter = retryAfterMs(response.headers.get("retry-after"));
  throw new ToolnexusError("provider:http", `LLM ${response.status}: ${excerpt}`, {
    status: response.status,
    body: excerpt,
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
  });
}

interface Attempt {
  signal: AbortSignal;
  guard<T>(promise: Promise<T>): Promise<T>;
  fail(error: unknown): ToolnexusError;
  open(response: Response): OpenResponse;
  close(): void;
}

function startAttempt(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  honoursSignal: boolean,
): Attempt {
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
  const guard = <T>(promise: Promise<T>): Promise<T> =>
    honoursSignal && !controller.signal.aborted ? promise : untilAborted(promise, controller);
  return {
    signal: controller.signal,
    guard,
    fail,
    close,
    open: (response) => ({
      response,
      signal: controller.signal,
      fail,
      close,
      guard,
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

function abortedError(signal: AbortSignal | undefined): ToolnexusError {
  return new ToolnexusError("aborted", "The model call was aborted", { cause: signal?.reason });
}
