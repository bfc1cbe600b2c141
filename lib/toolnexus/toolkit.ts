import { errorResult } from "./define-tool";
import { ToolnexusError } from "./errors";
import { createQuestionTool } from "./question-tool";
import type { Context, Tool, ToolkitLike, ToolResult, ToolSpec } from "./types";

export interface ToolkitOptions {
  /** Built-in tools; on unless `false`. */
  builtins?: boolean;
  extraTools?: Tool[];
  /** Switch individual built-ins off, e.g. `{ question: false }`. */
  tools?: { question?: boolean };
}

export interface OpenAiToolSchema {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface AnthropicToolSchema {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface Toolkit extends ToolkitLike {
  register(tool: Tool): void;
  tools(): Tool[];
  openaiTools(): OpenAiToolSchema[];
  anthropicTools(): AnthropicToolSchema[];
  close(): Promise<void>;
}

/** A named set of tools the loop can list and call. Async so future tool sources can connect. */
export async function createToolkit(options: ToolkitOptions = {}): Promise<Toolkit> {
  const registry = new Map<string, Tool>();

  const register = (tool: Tool): void => {
    if (typeof tool?.name !== "string" || tool.name === "" || typeof tool.execute !== "function") {
      throw new ToolnexusError("config:invalid", "A tool needs a non-empty name and an execute function");
    }
    if (registry.has(tool.name)) {
      throw new ToolnexusError("config:invalid", `A tool named "${tool.name}" is already registered`);
    }
    registry.set(tool.name, tool);
  };

  if (options.builtins !== false && options.tools?.question !== false) register(createQuestionTool());
  for (const tool of options.extraTools ?? []) register(tool);

  return {
    register,
    has: (name) => registry.has(name),
    tools: () => [...registry.values()],
    specs: (): ToolSpec[] =>
      [...registry.values()].map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
      })),
    openaiTools: () =>
      [...registry.values()].map((t) => ({
        type: "function" as const,
        function: { name: t.name, description: t.description, parameters: t.inputSchema },
      })),
    anthropicTools: () =>
      [...registry.values()].map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.inputSchema,
      })),
    async execute(name: string, args: Record<string, unknown>, ctx?: Context): Promise<ToolResult> {
      const tool = registry.get(name);
      if (!tool) return { output: `Unknown tool: ${name}`, isError: true };
      // Tools built by hand (not through defineTool) may still throw; the model sees an error result.
      try {
        return await tool.execute(args, ctx);
      } catch (error) {
        return errorResult(error);
      }
    },
    async close() {
      registry.clear();
    },
  };
}
