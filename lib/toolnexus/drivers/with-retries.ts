import { type BackoffPolicy, backoffDelayMs } from "../backoff";
import { ToolnexusError } from "../errors";
import type { ModelDriver, ModelInput, ModelStreamPart, ModelTurn } from "../types";

/** What `onError` hears about one failed model call. */
export interface ErrorInfo {
  /** What was thrown (for an HTTP failure too: a `provider:http` ToolnexusError). */
  error?: unknown;
  /** The HTTP status, when the provider answered. */
  status?: number;
  /** 0 for the first attempt. */
  attempt: number;
  /** Whether the default would retry it: a network failure, 429 or 5xx. */
  retryable: boolean;
}

export type ErrorTier = "retry" | "fail";

/** How a driver retries a model call that failed on the way, the same for every driver. */
export interface RetryOptions {
  /** Extra attempts after a 429, a 5xx or a network failure. Default 2. */
  retries?: number;
  /** First backoff step; doubles per attempt, plus up to 100 ms of jitter. Default 500. */
  retryBaseMs?: number;
  /** Decides per failure; a "retry" still stops when `retries` are spent. Default: `retryable`. */
  onError?: (info: ErrorInfo) => ErrorTier;
}

export interface RetrySettings {
  retries: number;
  retryBaseMs: number;
  onError?: (info: ErrorInfo) => ErrorTier;
  /** Replaceable so tests can observe the chosen delays without waiting for them. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

const MAX_BACKOFF_MS = 30_000;
// A server asking for a longer pause than this is better reported than waited on.
const MAX_RETRY_AFTER_MS = 60_000;
// The widest whole-second Retry-After every port of this API reads; beyond it, a header is noise.
const MAX_RETRY_AFTER_SECONDS = 2_147_483_647;

/** The defaults applied and the values checked; a bad value throws `config:invalid`. */
export function retrySettings(options: RetryOptions = {}): RetrySettings {
  const retries = options.retries ?? 2;
  const retryBaseMs = options.retryBaseMs ?? 500;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new ToolnexusError("config:invalid", "retries must be a non-negative integer");
  }
  if (!Number.isFinite(retryBaseMs) || retryBaseMs < 0) {
    throw new ToolnexusError("config:invalid", "retryBaseMs must be a non-negative number");
  }
  if (options.onError !== undefined && typeof options.onError !== "function") {
    throw new ToolnexusError("config:invalid", "onError must be a function");
  }
  return options.onError ? { retries, retryBaseMs, onError: options.onError } : { retries, retryBaseMs };
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The wait before attempt `attempt + 2`, or undefined when `error` is final: the retries spent,
 * `onError` said "fail" (by default: anything but a network failure or a retryable status), or a
 * Retry-After beyond a minute. An abort is always final.
 */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  settings: RetrySettings,
  policy: BackoffPolicy = backoffPolicy(settings),
): number | undefined {
  if (attempt >= settings.retries || !(error instanceof ToolnexusError) || error.code === "aborted") {
    return undefined;
  }
  const status = error.code === "provider:http" ? error.status : undefined;
  const retryable = error.code === "provider:network" || (status !== undefined && isRetryableStatus(status));
  const info: ErrorInfo = { error, attempt, retryable };
  if (status !== undefined) info.status = status;
  const tier = settings.onError ? settings.onError(info) : retryable ? "retry" : "fail";
  if (tier !== "retry") return undefined;
  const backoff = backoffDelayMs(policy, attempt, settings.random ?? Math.random);
  if (error.retryAfterMs === undefined) return backoff;
  return error.retryAfterMs > MAX_RETRY_AFTER_MS ? undefined : error.retryAfterMs;
}

/**
 * The driver with retries around every call. A stream is retried only until its first part:
 * after that the caller has seen text that a second attempt could not take back.
 */
export function withRetries(driver: ModelDriver, settings: RetrySettings): ModelDriver {
  const policy = backoffPolicy(settings);
  const sleep = settings.sleep ?? abortableSleep;
  const retried = async (error: unknown, attempt: number, signal: AbortSignal | undefined) => {
    const delay = signal?.aborted ? undefined : retryDelayMs(error, attempt, settings, policy);
    if (delay === undefined) return false;
    await sleep(delay, signal);
    return true;
  };

  return {
    model: driver.model,

    async generate(input: ModelInput): Promise<ModelTurn> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await driver.generate(input);
        } catch (error) {
          if (!(await retried(error, attempt, input.signal))) throw error;
        }
      }
    },

    async *stream(input: ModelInput): AsyncGenerator<ModelStreamPart> {
      for (let attempt = 0; ; attempt++) {
        let started = false;
        try {
          for await (const part of driver.stream(input)) {
            started = true;
            yield part;
          }
          return;
        } catch (error) {
          if (started || !(await retried(error, attempt, input.signal))) throw error;
        }
      }
    },
  };
}

/**
 * A Retry-After header's pause: only whole seconds (RFC 9110's delay-seconds), 0 meaning now.
 * A fraction, a sign, an HTTP-date or a number past 2^31 - 1 is no answer, and our own backoff
 * applies.
 */
export function retryAfterMs(header: string | null | undefined): number | undefined {
  if (typeof header !== "string") return undefined;
  const text = header.trim();
  if (!/^\d+$/.test(text)) return undefined;
  const seconds = Number(text);
  return seconds <= MAX_RETRY_AFTER_SECONDS ? seconds * 1000 : undefined;
}

function backoffPolicy(settings: RetrySettings): BackoffPolicy {
  return { firstMs: settings.retryBaseMs, maxMs: MAX_BACKOFF_MS, jitter: [1, 1], addedJitterMs: 100 };
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
