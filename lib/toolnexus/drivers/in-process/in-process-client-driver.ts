import type { OpenAiToolSchema } from "../../adapters";
import { ToolnexusError } from "../../errors";
import type { ModelDriver, ModelInput, Usage } from "../../types";
import { openAiWire } from "../http/wire/openai";
import type { RetryOptions } from "../with-retries";
import {
  createInProcessDriver,
  type InProcessGenerate,
  type InProcessPart,
  type InProcessReply,
  type InProcessToolCall,
} from "./in-process-driver";

/** What `createInProcessClient`'s generate is handed: the request as an OpenAI-style endpoint gets it. */
export interface InProcessRequest {
  model: string;
  /** Chat Completions messages, the system prompt first when there is one. */
  messages: Record<string, unknown>[];
  tools: OpenAiToolSchema[];
  /** The whole request body (model, messages, and tools with `tool_choice` when there are any). */
  body: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface InProcessCompletion {
  content?: string | null;
  /** `arguments` as an object or as its JSON text. */
  toolCalls?: { id?: string; name: string; arguments?: unknown }[];
  usage?: Partial<Usage>;
}

/**
 * A model in this process. Returning an async iterable of parts (`text`, `tool_call`, `usage`,
 * `finish`) streams; `client.stream` refuses a generate that returned one reply, rather than
 * passing it off as a stream of one chunk.
 */
export type InProcessCompletionGenerate = (
  request: InProcessRequest,
) =>
  | InProcessCompletion
  | Promise<InProcessCompletion | AsyncIterable<InProcessPart>>
  | AsyncIterable<InProcessPart>;

export interface InProcessClientDriverOptions extends RetryOptions {
  model: string;
  generate: InProcessCompletionGenerate;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<InProcessPart> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

function toolCallOf(call: { id?: string; name: string; arguments?: unknown }): InProcessToolCall {
  let args = call?.arguments;
  if (typeof args === "string") {
    try {
      args = args.trim() === "" ? {} : JSON.parse(args);
    } catch {
      // Left as text: the loop feeds it back as a tool error, as it does for a hosted model.
    }
  }
  const converted: InProcessToolCall = { name: call?.name, args: args as Record<string, unknown> };
  if (call?.id !== undefined) converted.id = call.id;
  return converted;
}

function replyOf(completion: InProcessCompletion): InProcessReply {
  if (typeof completion !== "object" || completion === null) {
    throw new ToolnexusError(
      "provider:malformed_response",
      "The in-process model returned a reply that is not an object",
    );
  }
  const reply: InProcessReply = { text: completion.content ?? "" };
  if (completion.toolCalls !== undefined) {
    if (!Array.isArray(completion.toolCalls)) {
      throw new ToolnexusError(
        "provider:malformed_response",
        "The in-process model returned non-array toolCalls",
      );
    }
    reply.toolCalls = completion.toolCalls.map(toolCallOf);
  }
  if (completion.usage !== undefined) reply.usage = completion.usage;
  return reply;
}

/** The loop's driver around a generate that speaks the OpenAI shapes, for `createInProcessClient`. */
export function createInProcessClientDriver(options: InProcessClientDriverOptions): ModelDriver {
  if (typeof options?.generate !== "function") {
    throw new ToolnexusError("config:invalid", "createInProcessClient requires a `generate` function");
  }
  const adapt =
    (streaming: boolean): InProcessGenerate =>
    async (input: ModelInput) => {
      const body = openAiWire.body(input, { stream: false, maxTokens: 0 });
      const request: InProcessRequest = {
        model: input.model,
        messages: body.messages as Record<string, unknown>[],
        tools: (body.tools ?? []) as OpenAiToolSchema[],
        body,
      };
      if (input.signal) request.signal = input.signal;
      const reply = await options.generate(request);
      if (isAsyncIterable(reply)) return reply;
      if (streaming) {
        throw new ToolnexusError(
          "config:invalid",
          "This in-process model does not support streaming: its generate returned one reply (return an async iterable of parts to stream)",
        );
      }
      return replyOf(reply);
    };
  const { generate: _generate, ...rest } = options;
  const oneShot = createInProcessDriver({ ...rest, generate: adapt(false) });
  const streamed = createInProcessDriver({ ...rest, generate: adapt(true) });
  return { model: options.model, generate: oneShot.generate, stream: streamed.stream };
}
