import { type BackoffPolicy, backoffDelayMs } from "../backoff";
import { ToolnexusError } from "../errors";
import type { ModelDriver, ModelInput, ModelStreamPart, ModelTurn } from "../types";

/** How a driver retries a model call that failed on the way, the same for every driver. */
export interface RetryOptions {
  /** Extra attempts after a 429, a 5xx or a network failure. Default 2. */
  retries?: number;
  /** First backoff step; doubles per attempt, with jitter. Default 250. */
  retryBaseMs?: number;
}

export interface RetrySettings {
  retries: number;
  retryBaseMs: number;
  /** Replaceable so tests can observe the chosen delays without waiting for them. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

const MAX_BACKOFF_MS = 30_000;
// A server asking for a longer pause than this is better reported than waited on.
const MAX_RETRY_AFTER_MS = 60_000;
// "Equal jitter": half the step is fixed, half random, so bursts spread.
const EQUAL_JITTER = [0.5, 1] as const;

/** The defaults applied and the values checked; a bad value throws `config:invalid`. */
export function retrySettings(options: RetryOptions = {}): RetrySettings {
  const retries = options.retries ?? 2;
  const retryBaseMs = options.retryBaseMs ?? 250;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new ToolnexusError("config:invalid", "retries must be a non-negative integer");
  }
  if (!Number.isFinite(retryBaseMs) || retryBaseMs < 0) {
    throw new ToolnexusError("config:invalid", "retryBaseMs must be a non-negative number");
  }
  return { retries, retryBaseMs };
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The wait before attempt `attempt + 2`, or undefined when `error` is final: anything but a
 * network failure or a retryable status, the retries spent, or a Retry-After beyond a minute.
 */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  settings: RetrySettings,
  policy: BackoffPolicy = backoffPolicy(settings),
): number | undefined {
  if (attempt >= settings.retries || !(error instanceof ToolnexusError)) return undefined;
  const random = settings.random ?? Math.random;
  if (error.code === "provider:network") return backoffDelayMs(policy, attempt, random);
  if (error.code !== "provider:http" || error.status === undefined || !isRetryableStatus(error.status)) {
    return undefined;
  }
  if (error.retryAfterMs === undefined) return backoffDelayMs(policy, attempt, random);
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

/** A Retry-After header's pause; only the delta-seconds form, an HTTP-date falls back to our own backoff. */
export function retryAfterMs(header: string | null | undefined): number | undefined {
  if (typeof header !== "string" || !/^\s*\d+(\.\d+)?\s*$/.test(header)) return undefined;
  return Math.round(Number(header) * 1000);
}

function backoffPolicy(settings: RetrySettings): BackoffPolicy {
  return { firstMs: settings.retryBaseMs, maxMs: MAX_BACKOFF_MS, jitter: EQUAL_JITTER };
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
