import type { Engine, EngineOptions } from "../engine-types";
import { makeTestEngine } from "./engine-fixture";
import type { EngineSuite } from "./engine-suite";
import { memoryLog } from "./scripted-agent";

export interface StartedRun {
  engine: Engine;
  log: ReturnType<typeof memoryLog>;
  threadId: string;
  runId: string;
}

/**
 * A fresh thread, an engine of its own with a memory log, and a run the owner starts there with
 * `message` (which picks the script), waited on until the engine is idle: a script that asks
 * something has parked by then.
 */
export async function startRunOnFreshThread(
  suite: EngineSuite,
  { message, ...options }: { message: string } & Partial<Omit<EngineOptions, "db">>,
): Promise<StartedRun> {
  const threadId = await suite.freshThread();
  const log = memoryLog();
  const engine = makeTestEngine({ db: suite.database.db, log, ...options });
  const { runId } = await engine.startRun({ threadId, userId: suite.people.owner.id, message });
  await engine.idle();
  return { engine, log, threadId, runId };
}
