import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import { tokenFor } from "@/app/api/mcp/_lib/testing/mcp-fixture";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { type ServedA2A, withA2AServer } from "./testing/with-a2a-server";

// examples/a2a/deploy-via-a2a.mts, run with tsx's loader as its README's tsx command does,
// against this app's A2A server over HTTP: agent A's deploy tool asks the app, is killed while
// the app's run waits for its reviewer, is run again, and deploys once the reviewer approves;
// the app ran one task.

let db: Db;
let engine: Engine;
let served: ServedA2A;
withA2AServer((started) => ({ db, engine, served } = started));
/** Every agent A started, killed after the tests so a failing one never outlives them. */
const running: { kill: () => void }[] = [];
afterAll(() => {
  for (const agent of running) agent.kill();
});

function runAgentA(token: string) {
  let output = "";
  const script = path.resolve("examples/a2a/deploy-via-a2a.mts");
  // Node with tsx's loader, one process: the tsx command runs the script in a child of its own,
  // which a SIGKILL to the command leaves running (the first agent A would never really die).
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, TOOLNEXUS_URL: served.base, TOOLNEXUS_A2A_TOKEN: token, DEPLOY_VERSION: "v1.4" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const agent = {
    output: () => output,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
  running.push(agent);
  return agent;
}

async function until<T>(probe: () => Promise<T | null>, what: string): Promise<T> {
  for (let tries = 0; tries < 600; tries += 1) {
    const found = await probe();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("the two-agent A2A example", () => {
  it("asks the app once, survives being killed while it waits, and deploys once a reviewer approves", {
    timeout: 90_000,
  }, async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { token } = await tokenFor(db, owner, ["a2a"]);
    const parked = () =>
      db.request.findFirst({ where: { run: { userId: owner.id }, status: "open" }, include: { run: true } });

    const first = runAgentA(token);
    const request = await until(parked, `the app's run to park (agent A said: ${first.output()})`);
    expect(request.prompt).toMatch(/v1\.4/);
    first.kill();
    await first.exited;

    // Run again, it finds its task on the app instead of sending a second one.
    const second = runAgentA(token);
    await until(async () => (second.output().includes("asking agent B") ? true : null), "agent A to start");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await engine.answerRequest({
      requestId: request.id,
      actor: reviewer,
      answer: (asked) => ({ ok: true, data: { arguments: asked.args } }),
    });
    expect(await second.exited).toBe(0);
    expect(second.output()).toMatch(/ok: Result: deployed v1\.4/);
    expect(await db.run.count({ where: { userId: owner.id } })).toBe(1);
    expect((await db.run.findUniqueOrThrow({ where: { id: request.runId ?? "" } })).status).toBe("done");
  });
});
