import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { RUN_MODES, type RunMode, resumeIn, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { verifyWhole } from "./testing/verify-whole";
import { createToolkit } from "./toolkit";
import type { Checkpoint, ModelInput } from "./types";

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

function twoToolsThenText() {
  return createScriptedDriver((input: ModelInput) =>
    input.messages.at(-1)?.role === "user"
      ? {
          toolCalls: [
            { id: "c1", name: "a" },
            { id: "c2", name: "b" },
          ],
        }
      : { text: "all done" },
  );
}

/** Runs one turn calling `a` (doing `runA`) and `b`, keeping every checkpoint the loop hands out. */
async function runSavingCheckpoints(mode: RunMode, runA: () => unknown) {
  const saved: Checkpoint[] = [];
  const a = defineTool({ name: "a", description: "d", run: runA });
  const b = defineTool({ name: "b", description: "d", run: () => "B" });
  const toolkit = await createToolkit({ builtins: false, extraTools: [a, b] });
  const { result } = await runIn(mode, createClientFromDriver(twoToolsThenText()), "go", {
    toolkit,
    onCheckpoint: (cp) => {
      saved.push(cp);
    },
  });
  return { saved, result };
}

describe.each(RUN_MODES)("safe points and crash recovery (%s)", (mode) => {
  it("hands a valid checkpoint to onCheckpoint after the model turn and after each tool result", async () => {
    const { saved, result } = await runSavingCheckpoints(mode, () => "A");
    expect(result.status).toBe("done");
    expect(saved).toHaveLength(3);
    for (const cp of saved) expect(await verifyWhole(JSON.parse(JSON.stringify(cp)))).toEqual(cp);
    expect(saved[0]!.slots.map((s) => s.state.status)).toEqual(["queued", "queued"]);
    expect(saved[2]!.slots.map((s) => s.state.status)).toEqual(["done", "done"]);
    expect(saved[0]!.turns).toBe(1);
  });

  it("waits for the host to persist before it goes on", async () => {
    const log: string[] = [];
    const a = defineTool({
      name: "a",
      description: "d",
      run: () => {
        log.push("tool a");
        return "A";
      },
    });
    const b = defineTool({
      name: "b",
      description: "d",
      run: () => {
        log.push("tool b");
        return "B";
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [a, b] });
    let n = 0;
    await runIn(mode, createClientFromDriver(twoToolsThenText()), "go", {
      toolkit,
      onCheckpoint: async () => {
        const mine = ++n;
        log.push(`save ${mine} start`);
        await nextTick();
        log.push(`save ${mine} end`);
      },
    });
    expect(log.slice(0, 3)).toEqual(["save 1 start", "save 1 end", "tool a"]);
    // Saves never overlap: each starts after the previous one ended.
    const saves = log.filter((line) => line.startsWith("save"));
    for (let i = 0; i < saves.length; i += 2) expect(saves[i + 1]).toBe(saves[i]!.replace("start", "end"));
  });

  it("gives the halt's checkpoint to onCheckpoint too", async () => {
    const { saved, result } = await runSavingCheckpoints(mode, () => pending({ kind: "input", prompt: "?" }));
    expect(result.status).toBe("pending");
    expect(saved.at(-1)).toEqual(result.checkpoint);
  });

  it("continues a crashed run from its last safe point without re-running finished tools", async () => {
    const runs = { a: 0, b: 0 };
    const keys: string[] = [];
    let crashed = true;
    const a = defineTool({
      name: "a",
      description: "d",
      run: () => {
        runs.a++;
        return "A";
      },
    });
    // In the crashed process b never finishes; after the restart it does.
    const b = defineTool({
      name: "b",
      description: "d",
      run: (_args, ctx) => {
        runs.b++;
        keys.push(ctx!.idempotencyKey!);
        return crashed ? new Promise(() => {}) : "B";
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [a, b] });
    let lastSaved: Checkpoint | undefined;
    const error = await runIn(mode, createClientFromDriver(twoToolsThenText()), "go", {
      toolkit,
      runId: "run-crash",
      onCheckpoint: (cp) => {
        lastSaved = JSON.parse(JSON.stringify(cp)) as Checkpoint;
        if (cp.slots.some((s) => s.state.status === "done")) throw new Error("process killed");
      },
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("process killed");
    expect(lastSaved!.slots.map((s) => s.state.status)).toEqual(["done", "queued"]);

    crashed = false;
    const driver = twoToolsThenText();
    const { result } = await resumeIn(mode, createClientFromDriver(driver), lastSaved!, [], { toolkit });
    expect(result.status).toBe("done");
    expect(result.text).toBe("all done");
    expect(result.toolCalls.map((c) => c.output)).toEqual(["A", "B"]);
    expect(runs).toEqual({ a: 1, b: 2 });
    expect(keys).toEqual(["run-crash:c2", "run-crash:c2"]);
    expect(driver.inputs).toHaveLength(1);
  });
});

describe("after the run has failed", () => {
  it("does not report progress from tools that finish late", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = defineTool({ name: "a", description: "d", run: () => pending({ kind: "input", prompt: "?" }) });
    const b = defineTool({
      name: "b",
      description: "d",
      run: async () => {
        await gate;
        return "late";
      },
    });
    const client = createClientFromDriver(twoToolsThenText(), {
      waitFor: async () => {
        throw new Error("inbox down");
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [a, b] });
    const saved: Checkpoint[] = [];
    await expect(client.run("go", { toolkit, onCheckpoint: (cp) => void saved.push(cp) })).rejects.toThrow(
      "inbox down",
    );
    const count = saved.length;
    release();
    await nextTick();
    await nextTick();
    expect(saved).toHaveLength(count);
    expect(saved.every((cp) => cp.slots.every((slot) => slot.state.status !== "done"))).toBe(true);
  });
});
