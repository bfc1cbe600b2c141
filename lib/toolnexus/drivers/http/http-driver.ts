import { ToolnexusError } from "../../errors";
import type { ModelDriver, ModelInput, ModelStreamPart, ModelTurn } from "../../types";
import { type RetryOptions, retrySettings, withRetries } from "../with-retries";
import { type OpenResponse, openResponse } from "./open-response";
import { parseSse, SseBufferOverflowError } from "./sse";
import { anthropicWire } from "./wire/anthropic";
import { openAiWire } from "./wire/openai";
import { excerptOf } from "./wire/wire-errors";
import type { WireFormat } from "./wire/wire-format";

export type WireStyle = "openai" | "anthropic";

export interface HttpDriverOptions extends RetryOptions {
  baseUrl: string;
  style: WireStyle;
  model: string;
  apiKey?: string;
  /** Replaces the global fetch, e.g. to route through a proxy or to stub the provider. */
  fetch?: typeof fetch;
  /** Sent with every request, after (and so overriding) the style's own headers. */
  headers?: Record<string, string>;
  /**
   * Per attempt: bounds a whole JSON call, and for a stream the wait for its first byte and
   * every gap between chunks after that. Default 60000.
   */
  timeoutMs?: number;
  /** Anthropic's required `max_tokens`. Default 4096. */
  maxTokens?: number;
  /**
   * Top-level keys merged into every request body after it is built (a key here wins, e.g.
   * `max_tokens` or `temperature`). `messages`, `tools` and `stream` are the loop's own and are
   * ignored with a warning; rewrite those in `bodyTransform`.
   */
  requestParams?: Record<string, unknown>;
  /** Gets every assembled body last, just before it is sent; returns the body to send (or nothing to keep it). */
  bodyTransform?: (body: Record<string, unknown>) => Record<string, unknown> | undefined;
}

const LOOP_KEYS = new Set(["messages", "tools", "stream"]);

/** `requestParams` as they apply: the loop's own keys dropped, once, with a warning. */
function requestParamsOf(params: Record<string, unknown> | undefined): [string, unknown][] {
  const kept: [string, unknown][] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (LOOP_KEYS.has(key))
      console.warn(`[toolnexus] requestParams key "${key}" is not allowed — ignored (use bodyTransform)`);
    else kept.push([key, value]);
  }
  return kept;
}

const WIRES: Record<WireStyle, WireFormat> = { openai: openAiWire, anthropic: anthropicWire };

export function createHttpDriver(options: HttpDriverOptions): ModelDriver {
  const settings = validate(options);
  const wire = WIRES[options.style];
  const url = wire.endpoint(options.baseUrl);
  const apiKey = apiKeyOf(options);
  const headers = apiKey === undefined ? {} : { ...wire.headers(apiKey), ...lowerCaseKeys(options.headers) };
  const fetchFn = options.fetch ?? globalThis.fetch;
  const params = requestParamsOf(options.requestParams);
  const { bodyTransform } = options;
  const bodyOf = (input: ModelInput, stream: boolean): Record<string, unknown> => {
    const body = wire.body(withModel(input, options.model), { stream, maxTokens: settings.maxTokens });
    for (const [key, value] of params) body[key] = value;
    return bodyTransform?.(body) || body;
  };

  const send = (input: ModelInput, stream: boolean): Promise<OpenResponse> => {
    if (apiKey === undefined) {
      // Refused at the call, not when the client is made: a client is useful without a model
      // (its conversation store, its metrics), as in the reference port.
      return Promise.reject(
        new ToolnexusError(
          "config:missing_api_key",
          "No API key: set apiKey or OPENROUTER_API_KEY / OPENAI_API_KEY / ANTHROPIC_API_KEY",
        ),
      );
    }
    return openResponse({
      url,
      init: {
        method: "POST",
        headers,
        body: JSON.stringify(bodyOf(input, stream)),
      },
      fetch: fetchFn,
      honoursSignal: options.fetch === undefined,
      timeoutMs: settings.timeoutMs,
      signal: input.signal,
    });
  };

  // One attempt per call; withRetries decides whether a failed one is tried again.
  const driver: ModelDriver = {
    model: options.model,

    async generate(input: ModelInput): Promise<ModelTurn> {
      const open = await send(input, false);
      let text: string;
      try {
        text = await open.guard(open.response.text());
      } catch (error) {
        throw open.fail(error);
      } finally {
        open.close();
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new ToolnexusError(
          "provider:malformed_response",
          `The provider's reply is not JSON: ${excerptOf(text)}`,
          {
            status: open.response.status,
            body: excerptOf(text),
          },
        );
      }
      return wire.parseResponse(json);
    },

    async *stream(input: ModelInput): AsyncGenerator<ModelStreamPart> {
      const open = await send(input, true);
      try {
        const body = open.response.body;
        if (!body) throw new ToolnexusError("provider:malformed_sse", "The provider's stream has no body");
        const events = parseSse(body, { signal: open.signal, onChunk: open.refresh });
        yield* wire.decodeStream(events);
      } catch (error) {
        if (error instanceof ToolnexusError && !open.signal.aborted) throw error;
        if (error instanceof SseBufferOverflowError && !open.signal.aborted) {
          throw new ToolnexusError("provider:malformed_sse", error.message, { cause: error });
        }
        throw open.fail(error);
      } finally {
        open.close();
      }
    },
  };
  return withRetries(driver, settings);
}

// Header names are case-insensitive; without this an "Authorization" override would be sent
// alongside our "authorization" instead of replacing it.
function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

function withModel(input: ModelInput, fallback: string): ModelInput {
  return input.model ? input : { ...input, model: fallback };
}

/** The key given, else the environment's: OpenRouter's, then the style's own, then the other's. */
function apiKeyOf(options: HttpDriverOptions): string | undefined {
  const env = process.env;
  const candidates =
    options.apiKey !== undefined
      ? [options.apiKey]
      : [
          env.OPENROUTER_API_KEY,
          options.style === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY,
          env.OPENAI_API_KEY,
          env.ANTHROPIC_API_KEY,
        ];
  return candidates.find((key): key is string => typeof key === "string" && key.trim() !== "");
}

function validate(options: HttpDriverOptions) {
  if (!Object.hasOwn(WIRES, options.style)) {
    throw new ToolnexusError(
      "config:unknown_style",
      `Unknown wire style ${JSON.stringify(options.style)}; use "openai" or "anthropic"`,
    );
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(options.baseUrl);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new ToolnexusError(
      "config:invalid",
      `baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`,
    );
  }
  if (typeof options.model !== "string" || options.model === "") {
    throw new ToolnexusError("config:invalid", "A model name is required");
  }
  const retry = retrySettings(options);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxTokens = options.maxTokens ?? 4096;
  // setTimeout fires at once for delays beyond a signed 32-bit millisecond count.
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 2_147_483_647) {
    throw invalid("timeoutMs must be a positive number of milliseconds below 2^31");
  }
  if (!Number.isInteger(maxTokens) || maxTokens <= 0) throw invalid("maxTokens must be a positive integer");
  return { ...retry, timeoutMs, maxTokens };
}

function invalid(message: string): ToolnexusError {
  return new ToolnexusError("config:invalid", message);
}
