import type { Engine, EngineOptions } from "../engine-types";
import { makeTestEngine, readRunState } from "./engine-fixture";
import type { EngineSuite } from "./engine-suite";
import { createScriptedToolkit, memoryLog } from "./scripted-agent";

/** Waits until `check` holds, polling every 10 ms; fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5_000) {
  for (const started = Date.now(); Date.now() - started < ms; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("timed out");
}

/**
 * An engine whose approved calls neither look at their signal nor settle until `settle` does,
 * as a hung tool would. `working` turns true once such a call is running in it.
 */
export function makeStuckCallEngine(
  suite: EngineSuite,
  settle: Promise<void>,
  options: Partial<EngineOptions> = {},
): { engine: Engine; working: () => boolean } {
  const log = memoryLog();
  let working = false;
  const engine = makeTestEngine({
    db: suite.database.db,
    log,
    ...options,
    createToolkit: () =>
      createScriptedToolkit({
        log,
        block: () => {
          working = true;
          return settle;
        },
      }),
  });
  return { engine, working: () => working };
}

/**
 * Parks a fresh thread's run on an approval, approves it, and returns once the approved call is
 * running in `engine` (made by `makeStuckCallEngine`).
 */
export async function startStuckCall(
  suite: EngineSuite,
  { engine, working }: ReturnType<typeof makeStuckCallEngine>,
) {
  const threadId = await suite.freshThread();
  const { runId } = await engine.startRun({
    threadId,
    userId: suite.people.owner.id,
    message: "block-after-answer",
  });
  await engine.idle();
  const [request] = (await readRunState(suite.database.db, runId)).requests;
  await engine.answerRequest({
    requestId: request!.id,
    answer: { ok: true },
    actor: suite.people.reviewer,
  });
  await until(working);
  return { runId, requestId: request!.id };
}
