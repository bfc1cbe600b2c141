import type {
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { ModelTurn, ToolCall, Usage } from "../../types";

/** One finished `doGenerate` result as a provider-neutral assistant turn. */
export function fromAiSdkResult(result: LanguageModelV3GenerateResult): ModelTurn {
  let text = "";
  const toolCalls: ToolCall[] = [];
  for (const part of result.content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "tool-call" && !part.providerExecuted) toolCalls.push(fromAiSdkToolCall(part));
  }
  const turn: ModelTurn = { text, toolCalls, usage: fromAiSdkUsage(result.usage) };
  const finishReason = fromAiSdkFinishReason(result.finishReason);
  if (finishReason !== undefined) turn.finishReason = finishReason;
  return turn;
}

export function fromAiSdkToolCall(part: Pick<LanguageModelV3ToolCall, "toolCallId" | "toolName" | "input">) {
  return { id: part.toolCallId, name: part.toolName, ...parseToolInput(part.input) } satisfies ToolCall;
}

/**
 * Models send arguments as JSON text. Anything that is not a JSON object is kept verbatim in
 * `invalidArgs`, so the loop can hand it back to the model as a tool error instead of guessing.
 */
export function parseToolInput(input: unknown): Pick<ToolCall, "args" | "invalidArgs"> {
  if (isPlainObject(input)) return { args: input };
  if (typeof input !== "string") return { args: {}, invalidArgs: String(input) };
  if (input.trim() === "") return { args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    return { args: {}, invalidArgs: input };
  }
  return isPlainObject(parsed) ? { args: parsed } : { args: {}, invalidArgs: input };
}

// V2 models report plain numbers where V3 models report breakdown objects; accepting both costs nothing.
type AnyUsage = LanguageModelV3Usage | { inputTokens?: number; outputTokens?: number } | undefined;

export function fromAiSdkUsage(usage: AnyUsage): Usage {
  const promptTokens = tokenCount(usage?.inputTokens);
  const completionTokens = tokenCount(usage?.outputTokens);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

function tokenCount(value: number | { total: number | undefined } | undefined): number {
  const count = typeof value === "number" ? value : value?.total;
  return typeof count === "number" && Number.isFinite(count) ? count : 0;
}

export function fromAiSdkFinishReason(reason: LanguageModelV3FinishReason | string | undefined) {
  return typeof reason === "string" ? reason : reason?.unified;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
