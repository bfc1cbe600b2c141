import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { isToolnexusError } from "./errors";
import { RUN_MODES, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";
import type { Context } from "./types";

describe.each(RUN_MODES)("the loop (%s)", (mode) => {
  it("gives tools the signal and an idempotency key of runId:toolCallId", async () => {
    const contexts: Array<Context | undefined> = [];
    const probe = defineTool({
      name: "probe",
      description: "d",
      run: (_args, ctx) => {
        contexts.push(ctx);
        return "ok";
      },
    });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "call-7", name: "probe" }] }, { text: "." }]);
    const toolkit = await createToolkit({ builtins: false, extraTools: [probe] });
    const controller = new AbortController();
    await runIn(mode, createClientFromDriver(driver), "go", {
      toolkit,
      runId: "run-abc",
      signal: controller.signal,
    });
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.idempotencyKey).toBe("run-abc:call-7");
    expect(contexts[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(contexts[0]!.answer).toBeUndefined();
    expect(driver.inputs[0]!.signal).toBeInstanceOf(AbortSignal);
    controller.abort();
    expect(contexts[0]!.signal!.aborted).toBe(true);
  });

  it("generates a run id when none is given", async () => {
    const keys: string[] = [];
    const probe = defineTool({
      name: "probe",
      description: "d",
      run: (_a, ctx) => {
        keys.push(ctx!.idempotencyKey!);
        return "";
      },
    });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "c1", name: "probe" }] }, { text: "." }]);
    const toolkit = await createToolkit({ builtins: false, extraTools: [probe] });
    await runIn(mode, createClientFromDriver(driver), "go", { toolkit });
    expect(keys[0]).toMatch(/^run-[0-9a-f-]{36}:c1$/);
  });

  it("rejects with an aborted error when the signal fires mid-tool, and never starts on an aborted signal", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const hang = defineTool({
      name: "hang",
      description: "d",
      run: (_args, ctx) => {
        toolSignal = ctx?.signal;
        controller.abort();
        return new Promise(() => {});
      },
    });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "c1", name: "hang" }] }]);
    const toolkit = await createToolkit({ builtins: false, extraTools: [hang] });
    const client = createClientFromDriver(driver);
    const error = await runIn(mode, client, "go", { toolkit, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(isToolnexusError(error, "aborted")).toBe(true);
    expect(toolSignal?.aborted).toBe(true);

    const before = driver.inputs.length;
    const again = await runIn(mode, client, "go", { toolkit, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(isToolnexusError(again, "aborted")).toBe(true);
    expect(driver.inputs.length).toBe(before);
  });
});
