// Real MCP servers for the tests and the benchmark: the project's demo tracker and the
// protocol's reference server, as stdio configs or as HTTP processes on a given port.
import { type ChildProcess, spawn } from "node:child_process";
import { type AddressInfo, connect, createServer } from "node:net";
import path from "node:path";
import type { McpServerConfig } from "../config";

export const repoRoot = path.resolve(import.meta.dirname, "../../../..");
const demoScript = path.join(repoRoot, "scripts/demo-mcp-server.ts");
const everythingScript = path.join(
  repoRoot,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** The demo tracker over stdio; `args` are extra server options (e.g. `--state <file>`). */
export function demoStdio(args: string[] = [], extra: { timeoutMs?: number } = {}): McpServerConfig {
  return {
    transport: "stdio",
    command: process.execPath,
    args: ["--import", "tsx", demoScript, "--test-tools", ...args],
    cwd: repoRoot,
    disabled: false,
    ...extra,
  };
}

export function everythingStdio(): McpServerConfig {
  return {
    transport: "stdio",
    command: process.execPath,
    // Through a wrapper that ends with its stdin, so a killed host leaves no server behind.
    args: [path.join(import.meta.dirname, "everything-stdio.mjs")],
    disabled: false,
  };
}

export function httpConfig(port: number, extra: { timeoutMs?: number } = {}): McpServerConfig {
  return { transport: "http", url: `http://127.0.0.1:${port}/mcp`, disabled: false, ...extra };
}

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => resolve(socket.end() !== undefined));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`Nothing listens on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function started(child: ChildProcess, port: number): Promise<ServerProcess> {
  return waitForPort(port, child).then(() => ({
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  }));
}

/** The demo tracker over Streamable HTTP (`mode: "sse"` serves the older transport instead). */
export async function startDemoHttp(args: string[] = [], mode: "http" | "sse" = "http") {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", demoScript, `--${mode}`, String(port), "--test-tools", ...args],
    { cwd: repoRoot, stdio: "ignore" },
  );
  return started(child, port);
}

export async function startEverythingHttp() {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingScript, "streamableHttp"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  return started(child, port);
}
