import { readFileSync } from "node:fs";
import path from "node:path";
import type { ToolExecution } from "./scripted-agent";
import { type Child, spawnEngineChild } from "./spawn-child";

// The parent's side of `race-child.ts`: app instances as separate processes, each with an engine
// and database client of its own, that act when told and report how each action ended.

export type Outcome = { ok: true; value: unknown } | { ok: false; code: string; message: string };

export interface RaceInstance {
  /** Sends one command and resolves with how it ended (an error is an outcome, not a throw). */
  call(command: Record<string, unknown>): Promise<Outcome>;
  /** What this instance's tools ran, as its execution log has it. */
  executions(): ToolExecution[];
  exit(): Promise<void>;
}

export async function startRaceInstance({
  url,
  dir,
  name,
  blockMs,
}: {
  url: string;
  dir: string;
  name: string;
  blockMs: number;
}): Promise<RaceInstance> {
  const logFile = path.join(dir, `${name}.jsonl`);
  const child: Child = spawnEngineChild(
    { DATABASE_URL: url, LOG_FILE: logFile, BLOCK_MS: String(blockMs) },
    "race-child.ts",
  );
  const waiting = new Map<number, (outcome: Outcome) => void>();
  child.onLine((line) => {
    if (!line.startsWith("reply ")) return;
    const { id, ...outcome } = JSON.parse(line.slice("reply ".length)) as { id: number } & Outcome;
    waiting.get(id)?.(outcome as Outcome);
    waiting.delete(id);
  });
  await child.waitFor(/^ready$/);
  let next = 0;
  const call = (command: Record<string, unknown>) =>
    new Promise<Outcome>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, resolve);
      child.exited.then((code) => reject(new Error(`${name} exited (${code}):\n${child.output()}`)));
      child.send(JSON.stringify({ id, ...command }));
    });
  return {
    call,
    executions: () => {
      try {
        return readFileSync(logFile, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as ToolExecution);
      } catch {
        return [];
      }
    },
    async exit() {
      await call({ op: "exit" }).catch(() => {});
      await child.exited;
    },
  };
}
