import { errorResult } from "./define-tool";
import { ToolnexusError } from "./errors";
import type { McpConfigInput } from "./mcp/config";
import { connectMcpHub, type McpHub, type McpServerStatus } from "./mcp/hub";
import type { McpHubOptions } from "./mcp/server";
import { createQuestionTool } from "./question-tool";
import type { Context, Tool, ToolkitLike, ToolResult, ToolSpec } from "./types";

export interface ToolkitOptions {
  /** Built-in tools; on unless `false`. */
  builtins?: boolean;
  extraTools?: Tool[];
  /** Switch individual built-ins off, e.g. `{ question: false }`. */
  tools?: { question?: boolean };
  /** MCP servers: a path to a JSON file or the object (`{ mcpServers: {...} }`); the toolkit owns them. */
  mcpConfig?: McpConfigInput;
  /** Client settings for the servers of `mcpConfig`. */
  mcp?: McpHubOptions;
  /** MCP servers shared with other toolkits; `close()` leaves them open. */
  mcpHub?: McpHub;
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
  /** Every MCP server with its state, tool count, last error and skipped duplicate names. */
  mcpStatus(): McpServerStatus[];
  close(): Promise<void>;
}

/**
 * A named set of tools the loop can list and call: built-ins, extra tools, then the tools of
 * every connected MCP server (a name already taken is skipped and reported by `mcpStatus`).
 * A malformed `mcpConfig` file throws; a malformed entry or a broken server is only a status.
 */
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

  const ownHub =
    options.mcpConfig === undefined ? undefined : await connectMcpHub(options.mcpConfig, options.mcp);
  const hubs = [options.mcpHub, ownHub].filter((hub): hub is McpHub => hub !== undefined);
  await Promise.all(hubs.map((hub) => hub.ready()));

  // MCP tools can change while the toolkit lives (list_changed, reconnects), so they are read
  // from their hubs on every call; native names always win.
  const all = (): Tool[] => {
    const tools = [...registry.values()];
    const taken = new Set(registry.keys());
    for (const hub of hubs) {
      for (const tool of hub.tools(taken)) {
        taken.add(tool.name);
        tools.push(tool);
      }
    }
    return tools;
  };
  const find = (name: string): Tool | undefined => registry.get(name) ?? all().find((t) => t.name === name);

  return {
    register,
    has: (name) => find(name) !== undefined,
    tools: all,
    specs: (): ToolSpec[] =>
      all().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    openaiTools: () =>
      all().map((t) => ({
        type: "function" as const,
        function: { name: t.name, description: t.description, parameters: t.inputSchema },
      })),
    anthropicTools: () =>
      all().map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
    mcpStatus() {
      const taken = new Set(registry.keys());
      const statuses: McpServerStatus[] = [];
      for (const hub of hubs) {
        statuses.push(...hub.status(taken));
        for (const tool of hub.tools(taken)) taken.add(tool.name);
      }
      return statuses;
    },
    async execute(name: string, args: Record<string, unknown>, ctx?: Context): Promise<ToolResult> {
      const tool = find(name);
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
      hubs.length = 0;
      await ownHub?.close();
    },
  };
}
