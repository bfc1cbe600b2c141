import { z } from "zod";
import { ToolnexusError } from "../../../errors";
import type { Message, ModelInput, ModelStreamPart, ModelTurn, ToolCall, Usage } from "../../../types";
import type { SseEvent } from "../sse";
import { isPlainCompletion } from "./openai-reply";
import { toolArguments } from "./tool-arguments";
import { excerptOf, parseWireShape } from "./wire-errors";
import type { WireFormat, WireRequestOptions } from "./wire-format";

// OpenAI chat completions, as also spoken by most "OpenAI-compatible" servers.

const usageSchema = z.object({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
});

const responseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: z.object({
                  name: z.string(),
                  // A few compatible servers send the arguments already decoded.
                  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
                }),
              }),
            )
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: usageSchema.nullish(),
});

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().nonnegative().optional(),
                  id: z.string().nullish(),
                  function: z
                    .object({ name: z.string().nullish(), arguments: z.string().nullish() })
                    .nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: usageSchema.nullish(),
  error: z.unknown().optional(),
});

export const openAiWire: WireFormat = {
  endpoint: (baseUrl) => `${baseUrl.replace(/\/+$/, "")}/chat/completions`,

  headers: (apiKey) => ({ authorization: `Bearer ${apiKey}`, "content-type": "application/json" }),

  body: (input: ModelInput, options: WireRequestOptions) => {
    const body: Record<string, unknown> = { model: input.model, messages: toOpenAiMessages(input) };
    if (input.tools.length > 0) {
      body.tools = input.tools.map((tool) => ({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }));
      body.tool_choice = "auto";
    }
    if (options.stream) {
      body.stream = true;
      body.stream_options = { include_usage: true };
    }
    return body;
  },

  parseResponse: (json) => {
    // The everyday reply skips the schema (see openai-reply.ts); the schema decides the rest.
    const completion = isPlainCompletion(json)
      ? json
      : parseWireShape(responseSchema, json, {
          code: "provider:malformed_response",
          what: "an OpenAI chat completion",
        });
    const choice = completion.choices[0]!;
    const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((call, index) => {
      const raw = call.function.arguments;
      const decoded = typeof raw === "object" && raw !== null ? { args: raw } : toolArguments(raw ?? "");
      return { id: call.id || `call_${index}`, name: call.function.name, ...decoded };
    });
    const turn: ModelTurn = {
      text: choice.message.content ?? "",
      toolCalls,
      usage: toUsage(completion.usage),
    };
    if (choice.finish_reason) turn.finishReason = choice.finish_reason;
    return turn;
  },

  decodeStream: decodeOpenAiStream,
};

async function* decodeOpenAiStream(events: AsyncIterable<SseEvent>): AsyncGenerator<ModelStreamPart> {
  let text = "";
  let usage: Usage = toUsage(undefined);
  let finishReason: string | undefined;
  const calls: Array<{ id: string; name: string; args: string }> = [];

  for await (const event of events) {
    if (event.data === "[DONE]") {
      const turn: ModelTurn = {
        text,
        toolCalls: calls
          .filter((call) => call !== undefined)
          .map((call, index) => ({
            id: call.id || `call_${index}`,
            name: call.name,
            ...toolArguments(call.args),
          })),
        usage,
      };
      if (finishReason) turn.finishReason = finishReason;
      yield { type: "turn", turn };
      return;
    }
    const chunk = parseChunk(event.data);
    if (chunk.usage) usage = toUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if (choice.finish_reason) finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (!delta) continue;
      if (delta.content) {
        text += delta.content;
        yield { type: "text", delta: delta.content };
      }
      for (const [position, fragment] of (delta.tool_calls ?? []).entries()) {
        const index = fragment.index ?? position;
        const call = calls[index] ?? { id: "", name: "", args: "" };
        calls[index] = call;
        if (fragment.id && !call.id) call.id = fragment.id;
        // Some servers repeat the full name on every fragment; the first one is the name.
        if (fragment.function?.name && !call.name) call.name = fragment.function.name;
        if (fragment.function?.arguments) call.args += fragment.function.arguments;
      }
    }
  }
  throw new ToolnexusError("provider:malformed_sse", "The OpenAI stream ended before its [DONE] marker");
}

function parseChunk(data: string): z.infer<typeof chunkSchema> {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new ToolnexusError(
      "provider:malformed_sse",
      `An OpenAI stream event is not JSON: ${excerptOf(data)}`,
      {
        body: excerptOf(data),
      },
    );
  }
  const chunk = parseWireShape(chunkSchema, json, {
    code: "provider:malformed_sse",
    what: "an OpenAI stream chunk",
    raw: data,
  });
  if (chunk.error !== undefined && chunk.error !== null) {
    throw new ToolnexusError(
      "provider:http",
      `The provider reported an error mid-stream: ${excerptOf(data)}`,
      {
        body: excerptOf(data),
      },
    );
  }
  return chunk;
}

function toUsage(usage: z.infer<typeof usageSchema> | null | undefined): Usage {
  const promptTokens = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  return {
    promptTokens,
    completionTokens,
    totalTokens: usage?.total_tokens ?? promptTokens + completionTokens,
  };
}

export function toOpenAiMessages(
  input: Pick<ModelInput, "system" | "messages">,
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  if (input.system) out.push({ role: "system", content: input.system });
  for (const message of input.messages) out.push(toOpenAiMessage(message));
  return out;
}

function toOpenAiMessage(message: Message): Record<string, unknown> {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant": {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          // Echo what the model really sent, so its own mistake stays visible to it.
          function: { name: call.name, arguments: call.invalidArgs ?? JSON.stringify(call.args) },
        })),
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}
