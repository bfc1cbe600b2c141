import {
  type AnthropicToolSchema,
  type GeminiToolSchema,
  type OpenAiToolSchema,
  toAnthropic,
  toGemini,
  toOpenAI,
} from "./adapters";
import { type BuiltinsConfig, type BuiltinToolsOptions, selectBuiltins } from "./builtins";
import { ToolnexusError } from "./errors";
import type { McpConfigInput } from "./mcp/config-file";
import { connectMcpHub, type McpHub, type McpServerStatus } from "./mcp/hub";
import type { McpHubOptions } from "./mcp/server";
import type { Context, Tool, ToolkitLike, ToolResult, ToolSpec } from "./types";

export type { AnthropicToolSchema, GeminiToolSchema, OpenAiToolSchema } from "./adapters";

export interface ToolkitOptions {
  /**
   * Built-in tools; on by default. `false`, `{ disabled: true }` or `{ enabled: false }` turn them
   * all off; `{ tools: { question: false } }` turns single ones off.
   */
  builtins?: BuiltinsConfig;
  /** Settings of the built-ins, such as where webfetch may go. */
  builtinOptions?: BuiltinToolsOptions;
  /** Tools of the host; one named like a built-in replaces it. */
  extraTools?: Tool[];
  /** Names to leave out, whatever offers them (built-in, host or MCP tool, by the name the model sees). */
  disableTools?: string[];
  /** MCP servers: a path to a JSON file or the object; the toolkit owns them. */
  mcpConfig?: McpConfigInput;
  /** Client settings for the servers of `mcpConfig`. */
  mcp?: McpHubOptions;
  /** MCP servers shared with other toolkits; `close()` leaves them open. */
  mcpHub?: McpHub;
}

export type McpStatus = McpServerStatus["status"];

export interface Toolkit extends ToolkitLike {
  /** Adds tools; a name already present keeps its first tool (with a warning). Chains. */
  register(...tools: Tool[]): Toolkit;
  get(name: string): Tool | undefined;
  tools(): Tool[];
  toOpenAI(): OpenAiToolSchema[];
  toAnthropic(): AnthropicToolSchema[];
  toGemini(): GeminiToolSchema[];
  /** Each MCP server's state by name. */
  mcpStatus(): Record<string, McpStatus>;
  /** Every MCP server with its state, tool count, last error and skipped duplicate names. */
  mcpServers(): McpServerStatus[];
  close(): Promise<void>;
}

function checkTool(tool: Tool): void {
  if (typeof tool?.name !== "string" || tool.name === "" || typeof tool.execute !== "function") {
    throw new ToolnexusError("config:invalid", "A tool needs a non-empty name and an execute function");
  }
}

function warnDuplicate(name: string): void {
  console.warn(`[toolnexus] duplicate tool name "${name}" — keeping first`);
}

/**
 * A named set of tools the loop can list and call: the tools of every connected MCP server first
 * (they win a name clash), then built-ins and extra tools. A malformed `mcpConfig` file throws; a
 * malformed entry or a broken server is only a status.
 */
export async function createToolkit(options: ToolkitOptions = {}): Promise<Toolkit> {
  const registry = new Map<string, Tool>();
  const register = (tool: Tool): void => {
    checkTool(tool);
    if (options.disableTools?.includes(tool.name)) return;
    if (registry.has(tool.name)) warnDuplicate(tool.name);
    else registry.set(tool.name, tool);
  };

  const extra = options.extraTools ?? [];
  for (const tool of extra) checkTool(tool);
  // A host's tool named like a built-in is the host's way to replace that built-in.
  const replaced = new Set(extra.map((tool) => tool.name));
  for (const tool of selectBuiltins(options.builtins, options.builtinOptions))
    if (!replaced.has(tool.name)) register(tool);
  for (const tool of extra) register(tool);

  const ownHub =
    options.mcpConfig === undefined ? undefined : await connectMcpHub(options.mcpConfig, options.mcp);
  const hubs = [options.mcpHub, ownHub].filter((hub): hub is McpHub => hub !== undefined);
  await Promise.all(hubs.map((hub) => hub.ready()));

  // MCP tools can change while the toolkit lives (list_changed, reconnects), so they are read
  // from their hubs on every call.
  const hubTools = (): Tool[] => {
    const tools: Tool[] = [];
    const taken = new Set<string>();
    for (const hub of hubs) {
      for (const tool of hub.tools(taken)) {
        taken.add(tool.name);
        tools.push(tool);
      }
    }
    return tools;
  };
  const disabled = new Set(options.disableTools ?? []);
  const mcpTools = (): Tool[] => {
    const tools = hubTools();
    return disabled.size === 0 ? tools : tools.filter((tool) => !disabled.has(tool.name));
  };
  const all = (): Tool[] => {
    if (hubs.length === 0) return [...registry.values()];
    const tools = mcpTools();
    const taken = new Set(tools.map((tool) => tool.name));
    for (const tool of registry.values()) if (!taken.has(tool.name)) tools.push(tool);
    return tools;
  };
  const find = (name: string): Tool | undefined =>
    hubs.length === 0 ? registry.get(name) : (mcpTools().find((t) => t.name === name) ?? registry.get(name));

  const toolkit: Toolkit = {
    register(...tools) {
      for (const tool of tools) register(tool);
      return toolkit;
    },
    get: find,
    has: (name) => find(name) !== undefined,
    tools: all,
    specs: (): ToolSpec[] =>
      all().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    toOpenAI: () => toOpenAI(all()),
    toAnthropic: () => toAnthropic(all()),
    toGemini: () => toGemini(all()),
    mcpStatus() {
      const states: Record<string, McpStatus> = {};
      for (const server of toolkit.mcpServers()) states[server.name] = server.status;
      return states;
    },
    mcpServers() {
      const taken = new Set<string>();
      const statuses: McpServerStatus[] = [];
      for (const hub of hubs) {
        statuses.push(...hub.status(taken));
        for (const tool of hub.tools(taken)) taken.add(tool.name);
      }
      return statuses;
    },
    /** A tool's own throw rejects here; the loop turns it into an error result for the model. */
    async execute(name: string, args: Record<string, unknown>, ctx?: Context): Promise<ToolResult> {
      const tool = find(name);
      if (!tool) return { output: `Unknown tool: ${name}`, isError: true };
      return tool.execute(args ?? {}, ctx);
    },
    async close() {
      registry.clear();
      hubs.length = 0;
      await ownHub?.close();
    },
  };
  return toolkit;
}
