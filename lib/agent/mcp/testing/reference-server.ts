import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../../..");

/** The protocol's reference server, as its package ships it. */
export const REFERENCE_SERVER = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** A `mcpServers` entry that starts the reference server over stdio. */
export const referenceStdioEntry = { command: process.execPath, args: [REFERENCE_SERVER, "stdio"] };

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The reference server over Streamable HTTP on a free port (its endpoint is `/mcp`). */
export async function startReferenceHttpServer(): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [REFERENCE_SERVER, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes("listening on port")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the reference server exited with ${code}: ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** A port nothing listens on, for a server that cannot be reached. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/mcp`;
}
