import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "./config";

export interface ConnectOptions {
  clientName: string;
  clientVersion: string;
  timeoutMs: number;
  /** Gives up connecting (the host is closing): the attempt fails at once and leaves nothing running. */
  signal?: AbortSignal;
  /** Called for every `elicitation/create` the server sends; resolves with the user's reply. */
  onElicit: (params: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult>;
  onToolsChanged: (tools: McpTool[]) => void;
  onClose: () => void;
}

export interface OpenConnection {
  client: Client;
  transport: "stdio" | "http" | "sse";
  tools: McpTool[];
  close(): Promise<void>;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string, signal?: AbortSignal): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const expired = new Promise<never>((_, reject) => {
    // Written by this library and naming nothing remote: safe for a host to show (`expose`).
    const late = Object.assign(new Error(`${what} did not answer within ${ms} ms`), { expose: true });
    timer = setTimeout(() => reject(late), ms);
    onAbort = () => reject(Object.assign(new Error("Connecting was given up"), { expose: true }));
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([work, expired]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  });
}

function newClient(options: ConnectOptions): Client {
  // Only what this client implements is advertised: elicitation in both modes. No sampling,
  // no roots, so servers never send requests the host cannot answer.
  const client = new Client(
    { name: options.clientName, version: options.clientVersion },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      listChanged: {
        tools: {
          debounceMs: 20,
          onChanged: (error, tools) => {
            if (!error && tools) options.onToolsChanged(tools);
          },
        },
      },
    },
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    options.onElicit(request.params, extra.signal),
  );
  return client;
}

async function listAllTools(client: Client, timeoutMs: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function stdioTransport(config: Extract<McpServerConfig, { transport: "stdio" }>): Transport {
  return new StdioClientTransport({
    command: config.command,
    args: config.args,
    // The child gets the SDK's safe default environment (PATH, HOME, ...) plus what the
    // config names; the host's own secrets are not inherited.
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd ? { cwd: config.cwd } : {}),
    // A server's stderr may carry anything, secrets included: it never reaches our logs.
    stderr: "ignore",
  });
}

/** 4xx on the Streamable HTTP handshake is how an SSE-only (older) server answers. */
function answersLikeSseServer(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return false;
  const code = (error as { code?: unknown })?.code;
  return typeof code === "number" && code >= 400 && code < 500 && code !== 401 && code !== 403;
}

async function openTransport(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<{ client: Client; transport: OpenConnection["transport"] }> {
  if (config.transport === "stdio") {
    const client = newClient(options);
    try {
      await withTimeout(
        client.connect(stdioTransport(config)),
        options.timeoutMs,
        "The server",
        options.signal,
      );
    } catch (error) {
      // A handshake that timed out must not leave its child process behind.
      await client.close().catch(() => {});
      throw error;
    }
    return { client, transport: "stdio" };
  }
  const url = new URL(config.url);
  const requestInit: RequestInit = config.headers ? { headers: config.headers } : {};
  // The SDK's transports carry the user's token, discover and refresh on a 401 (RFC 9728,
  // RFC 8414, RFC 8707), and throw UnauthorizedError when only a new sign-in helps.
  const authProvider = config.authorization?.provider;
  const transportOptions = {
    requestInit,
    ...(authProvider ? { authProvider } : {}),
    ...(config.fetch ? { fetch: config.fetch } : {}),
  };
  const client = newClient(options);
  let first: unknown;
  try {
    await withTimeout(
      client.connect(new StreamableHTTPClientTransport(url, transportOptions)),
      options.timeoutMs,
      "The server",
      options.signal,
    );
    return { client, transport: "http" };
  } catch (error) {
    await client.close().catch(() => {});
    if (!answersLikeSseServer(error)) throw error;
    first = error;
  }
  const sseClient = newClient(options);
  try {
    await withTimeout(
      sseClient.connect(new SSEClientTransport(url, transportOptions)),
      options.timeoutMs,
      "The server",
      options.signal,
    );
  } catch {
    await sseClient.close().catch(() => {});
    // Neither transport worked: the Streamable HTTP answer is the one that explains why.
    throw first;
  }
  return { client: sseClient, transport: "sse" };
}

/** Connects to one server and lists its tools; throws when either fails. */
export async function connectServer(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<OpenConnection> {
  const { client, transport } = await openTransport(config, options);
  let closing = false;
  client.onclose = () => {
    if (!closing) options.onClose();
  };
  try {
    const tools = await withTimeout(
      listAllTools(client, options.timeoutMs),
      options.timeoutMs,
      "The server",
      options.signal,
    );
    return {
      client,
      transport,
      tools,
      async close() {
        closing = true;
        await client.close().catch(() => {});
      },
    };
  } catch (error) {
    closing = true;
    await client.close().catch(() => {});
    throw error;
  }
}
