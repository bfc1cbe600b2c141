import { z } from "zod";
import { ToolnexusError } from "../../../errors";
import type { ModelInput, ModelStreamPart, ModelTurn, ToolCall, Usage } from "../../../types";
import type { SseEvent } from "../sse";
import { isPlainObject, toolArguments } from "./tool-arguments";
import { describeIssue, excerptOf, parseWireShape } from "./wire-errors";
import type { WireFormat, WireRequestOptions } from "./wire-format";

// Anthropic Messages API, version 2023-06-01.

const usageSchema = z.object({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});

// Block types we do not use (thinking, server tools) must pass through untouched.
const blockSchema = z.object({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
});

const responseSchema = z.object({
  content: z.array(blockSchema),
  usage: usageSchema.nullish(),
  stop_reason: z.string().nullish(),
});

const eventSchema = z.object({
  type: z.string(),
  index: z.number().int().nonnegative().optional(),
  message: z.object({ usage: usageSchema.nullish() }).optional(),
  content_block: blockSchema.optional(),
  delta: z
    .object({
      type: z.string().optional(),
      text: z.string().optional(),
      partial_json: z.string().optional(),
      stop_reason: z.string().nullish(),
    })
    .optional(),
  usage: usageSchema.nullish(),
});

type Block = Record<string, unknown>;
type AnthropicMessage = { role: "user" | "assistant"; content: Block[] };

export const anthropicWire: WireFormat = {
  endpoint: (baseUrl) => {
    const trimmed = baseUrl.replace(/\/+$/, "");
    return `${trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`}/messages`;
  },

  headers: (apiKey) => ({
    "x-api-key": apiKey,
    "anthropic-version": "2023-06-01",
    "content-type": "application/json",
  }),

  body: (input: ModelInput, options: WireRequestOptions) => {
    const { system, messages } = toAnthropicMessages(input);
    const body: Record<string, unknown> = { model: input.model, max_tokens: options.maxTokens };
    if (system) body.system = system;
    body.messages = messages;
    if (input.tools.length > 0) {
      body.tools = input.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema,
      }));
    }
    if (options.stream) body.stream = true;
    return body;
  },

  parseResponse: (json) => {
    const message = parseWireShape(responseSchema, json, {
      code: "provider:malformed_response",
      what: "an Anthropic message",
    });
    let text = "";
    const toolCalls: ToolCall[] = [];
    for (const block of message.content) {
      if (block.type === "text") text += block.text ?? "";
      if (block.type !== "tool_use") continue;
      if (!block.id || !block.name) {
        throw new ToolnexusError(
          "provider:malformed_response",
          "An Anthropic tool_use block lacks its id or name",
          {
            body: excerptOf(json),
          },
        );
      }
      toolCalls.push({ id: block.id, name: block.name, ...inputArguments(block.input) });
    }
    const turn: ModelTurn = { text, toolCalls, usage: toUsage(message.usage, undefined) };
    if (message.stop_reason) turn.finishReason = message.stop_reason;
    return turn;
  },

  decodeStream: decodeAnthropicStream,
};

type OpenBlock = { kind: "text" } | { kind: "tool"; id: string; name: string; json: string; input: unknown };

async function* decodeAnthropicStream(events: AsyncIterable<SseEvent>): AsyncGenerator<ModelStreamPart> {
  const blocks = new Map<number, OpenBlock>();
  let text = "";
  let started: z.infer<typeof usageSchema> | null | undefined;
  let final: z.infer<typeof usageSchema> | null | undefined;
  let stopReason: string | undefined;

  for await (const sse of events) {
    const event = parseEvent(sse);
    switch (event.type) {
      case "message_start":
        started = event.message?.usage;
        break;
      case "content_block_start": {
        const block = event.content_block;
        if (event.index === undefined || !block)
          throw malformed("content_block_start without index or block", sse);
        if (block.type === "tool_use") {
          if (!block.id || !block.name) throw malformed("tool_use block without id or name", sse);
          blocks.set(event.index, {
            kind: "tool",
            id: block.id,
            name: block.name,
            json: "",
            input: block.input,
          });
        } else if (block.type === "text") {
          blocks.set(event.index, { kind: "text" });
          if (block.text) {
            text += block.text;
            yield { type: "text", delta: block.text };
          }
        }
        break;
      }
      case "content_block_delta": {
        const delta = event.delta;
        if (delta?.type === "text_delta" && delta.text) {
          text += delta.text;
          yield { type: "text", delta: delta.text };
        } else if (delta?.type === "input_json_delta") {
          const block = event.index === undefined ? undefined : blocks.get(event.index);
          if (block?.kind !== "tool")
            throw malformed("input_json_delta for a block that is not a tool_use", sse);
          block.json += delta.partial_json ?? "";
        }
        break;
      }
      case "message_delta":
        if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
        if (event.usage) final = event.usage;
        break;
      case "message_stop": {
        const toolCalls: ToolCall[] = [...blocks.entries()]
          .sort(([a], [b]) => a - b)
          .flatMap(([, block]) =>
            block.kind === "tool"
              ? [
                  {
                    id: block.id,
                    name: block.name,
                    ...(block.json === "" ? inputArguments(block.input ?? {}) : toolArguments(block.json)),
                  },
                ]
              : [],
          );
        const turn: ModelTurn = { text, toolCalls, usage: toUsage(started, final) };
        if (stopReason) turn.finishReason = stopReason;
        yield { type: "turn", turn };
        return;
      }
      case "error":
        throw new ToolnexusError(
          "provider:http",
          `The provider reported an error mid-stream: ${excerptOf(sse.data)}`,
          {
            body: excerptOf(sse.data),
          },
        );
      default:
        // ping, content_block_stop and event types newer than this code carry nothing we need.
        break;
    }
  }
  throw new ToolnexusError("provider:malformed_sse", "The Anthropic stream ended before message_stop");
}

function parseEvent(sse: SseEvent): z.infer<typeof eventSchema> {
  let json: unknown;
  try {
    json = JSON.parse(sse.data);
  } catch {
    throw malformed("event data is not JSON", sse);
  }
  const parsed = eventSchema.safeParse(json);
  if (!parsed.success) throw malformed(describeIssue(parsed.error), sse);
  return parsed.data;
}

function malformed(reason: string, sse: SseEvent): ToolnexusError {
  return new ToolnexusError(
    "provider:malformed_sse",
    `Broken Anthropic stream (${reason}): ${excerptOf(sse.data)}`,
    {
      body: excerptOf(sse.data),
    },
  );
}

function inputArguments(input: unknown): Pick<ToolCall, "args" | "invalidArgs"> {
  if (isPlainObject(input)) return { args: input };
  // Some gateways forward the input still encoded as text.
  if (typeof input === "string") return toolArguments(input);
  return { args: {}, invalidArgs: JSON.stringify(input) ?? "" };
}

type RawUsage = z.infer<typeof usageSchema> | null | undefined;

/** Streams report input at message_start and a running output total at message_delta. */
function toUsage(start: RawUsage, end: RawUsage): Usage {
  const input = (u: RawUsage) =>
    u?.input_tokens == null
      ? undefined
      : u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
  const promptTokens = input(end) ?? input(start) ?? 0;
  const completionTokens = end?.output_tokens ?? start?.output_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

export function toAnthropicMessages(input: Pick<ModelInput, "system" | "messages">): {
  system: string;
  messages: AnthropicMessage[];
} {
  const system = input.system ? [input.system] : [];
  const messages: AnthropicMessage[] = [];
  // The API rejects two consecutive turns of one role, so neighbours are folded together.
  const append = (role: AnthropicMessage["role"], content: Block[]) => {
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  for (const message of input.messages) {
    switch (message.role) {
      case "system":
        system.push(message.content);
        break;
      case "user":
        append("user", [{ type: "text", text: message.content }]);
        break;
      case "assistant": {
        const content: Block[] = message.content === "" ? [] : [{ type: "text", text: message.content }];
        for (const call of message.toolCalls ?? []) {
          content.push({ type: "tool_use", id: call.id, name: call.name, input: call.args });
        }
        // An empty assistant turn carries nothing, and the API refuses empty content.
        if (content.length > 0) append("assistant", content);
        break;
      }
      case "tool":
        append("user", [
          {
            type: "tool_result",
            tool_use_id: message.toolCallId,
            content: message.content,
            is_error: message.isError,
          },
        ]);
        break;
    }
  }
  return { system: system.join("\n\n"), messages };
}
