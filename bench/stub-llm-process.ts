import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import type { StubStats } from "./stub-llm-server";

export interface StubProcess {
  readonly baseUrl: string;
  readonly pid: number;
  /** Requests served and CPU spent by the stub process since it started. */
  stats(): Promise<StubStats>;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "..");

/** Starts the bench stub LLM server in a child Node process and waits until it listens. */
export async function startStubProcess(): Promise<StubProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/stub-llm-main.ts"], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`The bench stub server exited early with code ${code}`);
  });
  const [line] = (await Promise.race([once(lines, "line"), exited])) as [string];
  lines.close();
  const { baseUrl } = JSON.parse(line) as { baseUrl: string };
  const statsUrl = new URL("/stats", baseUrl).toString();
  exited.catch(() => undefined);
  return {
    baseUrl,
    pid: child.pid!,
    async stats() {
      const res = await fetch(statsUrl);
      return (await res.json()) as StubStats;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = once(child, "exit");
      child.kill("SIGTERM");
      await gone;
    },
  };
}
