import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import type { Message, ModelInput, ToolSpec } from "../../types";

type AssistantContent = Extract<LanguageModelV3Message, { role: "assistant" }>["content"];

/** Translates one loop step into the call options every AI SDK language model accepts. */
export function toAiSdkCallOptions(input: ModelInput): LanguageModelV3CallOptions {
  const options: LanguageModelV3CallOptions = { prompt: toAiSdkPrompt(input) };
  if (input.tools.length > 0) {
    options.tools = input.tools.map(toAiSdkTool);
    options.toolChoice = { type: "auto" };
  }
  if (input.signal) options.abortSignal = input.signal;
  return options;
}

export function toAiSdkPrompt(input: Pick<ModelInput, "system" | "messages">): LanguageModelV3Message[] {
  const prompt: LanguageModelV3Message[] = [];
  if (input.system) prompt.push({ role: "system", content: input.system });
  for (const message of input.messages) {
    if (message.role === "tool") {
      appendToolResult(prompt, message);
      continue;
    }
    prompt.push(toAiSdkMessage(message));
  }
  return prompt;
}

function toAiSdkMessage(message: Exclude<Message, { role: "tool" }>): LanguageModelV3Message {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: [{ type: "text", text: message.content }] };
    case "assistant": {
      const content: AssistantContent = [];
      const calls = message.toolCalls ?? [];
      // Providers reject an assistant message with no parts at all, so an empty reply keeps its text part.
      if (message.content !== "" || calls.length === 0) content.push({ type: "text", text: message.content });
      for (const call of calls) {
        content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.args });
      }
      return { role: "assistant", content };
    }
  }
}

// Results of one turn travel as one tool message, the grouping the AI SDK itself produces; providers
// that want one message per result (OpenAI) split it again, those that want one block (Anthropic) keep it.
function appendToolResult(prompt: LanguageModelV3Message[], message: Extract<Message, { role: "tool" }>) {
  const part: LanguageModelV3ToolResultPart = {
    type: "tool-result",
    toolCallId: message.toolCallId,
    toolName: message.name,
    output: { type: message.isError ? "error-text" : "text", value: message.content },
  };
  const last = prompt[prompt.length - 1];
  if (last?.role === "tool") last.content.push(part);
  else prompt.push({ role: "tool", content: [part] });
}

function toAiSdkTool(spec: ToolSpec): LanguageModelV3FunctionTool {
  return {
    type: "function",
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema as LanguageModelV3FunctionTool["inputSchema"],
  };
}
