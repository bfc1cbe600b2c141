import type { Context, JsonSchema, Tool, ToolAnnotations, ToolResult } from "./types";

export const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({
  type: "object",
  properties: {},
  additionalProperties: false,
}) as JsonSchema;

export interface ToolDefinition<Args extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description: string;
  inputSchema?: JsonSchema;
  /** Where the tool comes from; `native` unless said otherwise. */
  source?: string;
  /** Behaviour hints hosts may use (for example to pick a default approval policy). */
  annotations?: ToolAnnotations;
  run: (args: Args, ctx?: Context) => unknown;
}

function isToolResult(value: unknown): value is ToolResult {
  return typeof value === "object" && value !== null && "output" in value && "isError" in value;
}

/** Maps whatever a tool body returned onto the ToolResult envelope. */
export function toToolResult(value: unknown): ToolResult {
  if (typeof value === "string") return { output: value, isError: false };
  // Both keys present means the tool built the envelope itself (this is how `pending` works).
  if (isToolResult(value)) return value;
  return { output: JSON.stringify(value) ?? "", isError: false };
}

export function errorResult(error: unknown): ToolResult {
  return { output: error instanceof Error ? error.message : String(error), isError: true };
}

/** A native tool: a plain function behind a name, a description and a JSON Schema. */
export function defineTool<Args extends Record<string, unknown> = Record<string, unknown>>(
  definition: ToolDefinition<Args>,
): Tool {
  const { name, description, run } = definition;
  const tool: Tool = {
    name,
    description,
    inputSchema: definition.inputSchema ?? { ...EMPTY_OBJECT_SCHEMA, properties: {} },
    source: definition.source ?? "native",
    async execute(args: Record<string, unknown>, ctx?: Context): Promise<ToolResult> {
      try {
        return toToolResult(await run(args as Args, ctx));
      } catch (error) {
        return errorResult(error);
      }
    },
  };
  if (definition.annotations !== undefined) tool.annotations = { ...definition.annotations };
  return tool;
}
