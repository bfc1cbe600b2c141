import type { Tool } from "./types";

/** What a tool declaration needs, whatever the tool behind it. */
type Declared = Pick<Tool, "name" | "description" | "inputSchema">;

export interface OpenAiToolSchema {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface AnthropicToolSchema {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface GeminiToolSchema {
  functionDeclarations: { name: string; description: string; parameters: Record<string, unknown> }[];
}

/** Anything outside `[a-zA-Z0-9_-]` becomes `_`: the names every provider accepts for a tool. */
export function sanitize(value: string): string {
  return value.replace(/[^a-zA-Z0-9_-]/g, "_");
}

export function toOpenAI(tools: readonly Declared[]): OpenAiToolSchema[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}

export function toAnthropic(tools: readonly Declared[]): AnthropicToolSchema[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
}

/** Gemini takes every declaration in one tool entry. */
export function toGemini(tools: readonly Declared[]): GeminiToolSchema[] {
  return [
    {
      functionDeclarations: tools.map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.inputSchema,
      })),
    },
  ];
}
