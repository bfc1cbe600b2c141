import type { McpStatus } from "../toolkit";
import type { JsonSchema, Tool } from "../types";
import { loadMcpConfig, type McpConfigInput } from "./config-file";
import { createMcpHub, type McpHub } from "./hub";
import type { McpHubOptions } from "./server";

export interface McpSource {
  tools: Tool[];
  status: Record<string, McpStatus>;
  close(): Promise<void>;
}

/** One tool as its server lists it: its own name, not the toolkit's. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface McpInventory {
  /** Each connected server's tools, before its `tools` filter (the list a filter is written from). */
  tools: Record<string, McpToolInfo[]>;
  status: Record<string, McpStatus>;
}

export interface LoadMcpOptions {
  /** Aborts the whole load: every connection is closed and the load rejects. */
  signal?: AbortSignal;
  hub?: McpHubOptions;
}

/**
 * Connects every enabled server of a config. A server that fails, or that takes longer than its
 * own `timeout` (else the hub's connect timeout), is only a `failed` status.
 */
async function connect(
  input: McpConfigInput,
  options: LoadMcpOptions,
): Promise<{ hub: McpHub; failed: string[] }> {
  options.signal?.throwIfAborted();
  const parsed = await loadMcpConfig(input);
  const hub = createMcpHub({ ...options.hub, servers: parsed.servers });
  const { signal } = options;
  if (signal) {
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([hub.ready(), aborted]);
    } catch (error) {
      await hub.close();
      throw error;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  } else {
    await hub.ready();
  }
  return { hub, failed: parsed.problems.map((problem) => problem.name) };
}

function statusOf(hub: McpHub, failed: string[]): Record<string, McpStatus> {
  const status: Record<string, McpStatus> = {};
  for (const server of hub.status()) status[server.name] = server.status;
  for (const name of failed) status[name] = "failed";
  return status;
}

/** The tools of every server of a config, without a toolkit; `close()` ends the connections. */
export async function loadMcp(input: McpConfigInput, options: LoadMcpOptions = {}): Promise<McpSource> {
  const { hub, failed } = await connect(input, options);
  return { tools: hub.tools(), status: statusOf(hub, failed), close: () => hub.close() };
}

/** Connects, lists what each server offers (unfiltered, under its own names), and disconnects. */
export async function listMcpTools(
  input: McpConfigInput,
  options: LoadMcpOptions = {},
): Promise<McpInventory> {
  const { hub, failed } = await connect(input, options);
  try {
    const tools: Record<string, McpToolInfo[]> = {};
    for (const [server, listed] of Object.entries(hub.listed())) {
      tools[server] = listed.map((tool) => ({
        name: tool.name,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema as JsonSchema,
      }));
    }
    return { tools, status: statusOf(hub, failed) };
  } finally {
    await hub.close();
  }
}
