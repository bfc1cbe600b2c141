import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createClientFromDriver } from "./client-from-driver";
import { createAiSdkDriver } from "./drivers/ai-sdk/ai-sdk-driver";
import { createHttpDriver, type HttpDriverOptions } from "./drivers/http/http-driver";
import {
  createInProcessClientDriver,
  type InProcessClientDriverOptions,
} from "./drivers/in-process/in-process-client-driver";
import type { RetryOptions } from "./drivers/with-retries";
import type { Client, LoopOptions, ModelDriver } from "./types";

export { createClientFromDriver } from "./client-from-driver";

/**
 * Loop options plus where the model lives: an OpenAI- or Anthropic-style HTTP endpoint (the
 * default), any AI SDK language model (`languageModel`), or a ready-made `driver`.
 */
export interface ClientOptions extends LoopOptions, Partial<Omit<HttpDriverOptions, "timeoutMs">> {
  languageModel?: LanguageModelV3;
  driver?: ModelDriver;
  /** Per attempt at a model call (the driver's `timeoutMs`); `timeoutMs` here bounds the whole run. */
  requestTimeoutMs?: number;
}

function pickHttpOptions(options: ClientOptions): HttpDriverOptions {
  const { baseUrl, style, model, apiKey, fetch, headers, maxTokens, requestParams, bodyTransform } = options;
  const picked: Record<string, unknown> = { baseUrl, style, model, apiKey, ...retryOptionsOf(options) };
  // Only keys the caller set, so the driver's own defaults apply to the rest.
  const optional = {
    fetch,
    headers,
    maxTokens,
    requestParams,
    bodyTransform,
    timeoutMs: options.requestTimeoutMs,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) picked[key] = value;
  }
  return picked as unknown as HttpDriverOptions;
}

function retryOptionsOf({ retries, retryBaseMs, onError }: RetryOptions): RetryOptions {
  const picked: RetryOptions = {};
  if (retries !== undefined) picked.retries = retries;
  if (retryBaseMs !== undefined) picked.retryBaseMs = retryBaseMs;
  if (onError !== undefined) picked.onError = onError;
  return picked;
}

function loopOptionsOf(options: LoopOptions): LoopOptions {
  const { systemPrompt, maxTurns, waitFor, hooks, onMetric, formatDecline, checkpointKey, timeoutMs } =
    options;
  const loop: LoopOptions = {};
  if (timeoutMs !== undefined) loop.timeoutMs = timeoutMs;
  if (options.store !== undefined) loop.store = options.store;
  if (systemPrompt !== undefined) loop.systemPrompt = systemPrompt;
  if (maxTurns !== undefined) loop.maxTurns = maxTurns;
  if (waitFor !== undefined) loop.waitFor = waitFor;
  if (hooks !== undefined) loop.hooks = hooks;
  if (onMetric !== undefined) loop.onMetric = onMetric;
  if (formatDecline !== undefined) loop.formatDecline = formatDecline;
  if (checkpointKey !== undefined) loop.checkpointKey = checkpointKey;
  if (options.messageFormat !== undefined) loop.messageFormat = options.messageFormat;
  return loop;
}

/** The agent loop around a model endpoint; configuration errors throw here, synchronously. */
export function createClient(options: ClientOptions): Client {
  const driver =
    options.driver ??
    (options.languageModel
      ? createAiSdkDriver(options.languageModel, retryOptionsOf(options))
      : createHttpDriver(pickHttpOptions(options)));
  const loop = loopOptionsOf(options);
  // An Anthropic-style endpoint's runs read back in Anthropic's messages, as with the reference.
  if (
    loop.messageFormat === undefined &&
    !options.driver &&
    !options.languageModel &&
    options.style === "anthropic"
  )
    loop.messageFormat = "anthropic";
  return createClientFromDriver(driver, loop);
}

export type InProcessClientOptions = InProcessClientDriverOptions & LoopOptions;

/**
 * The same loop around a function in this process instead of an HTTP endpoint: it is handed the
 * OpenAI-style request and answers `{ content, toolCalls: [{ name, arguments }] }` (the loop's
 * own shapes are `createClientFromDriver(createInProcessDriver(...))`).
 */
export function createInProcessClient(options: InProcessClientOptions): Client {
  const driver = createInProcessClientDriver({
    model: options?.model,
    generate: options?.generate,
    ...retryOptionsOf(options ?? {}),
  });
  return createClientFromDriver(driver, loopOptionsOf(options));
}
