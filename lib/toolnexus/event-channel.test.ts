import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { isToolnexusError } from "./errors";
import { createEventChannel } from "./event-channel";
import { pending } from "./pending";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";

describe("createEventChannel", () => {
  it("delivers pushed items in order, including ones pushed while the reader waits", async () => {
    const channel = createEventChannel<number>();
    channel.push(1);
    const read = (async () => {
      const seen: number[] = [];
      for await (const item of channel) seen.push(item);
      return seen;
    })();
    await Promise.resolve();
    channel.push(2);
    channel.push(3);
    channel.close();
    channel.push(4);
    expect(await read).toEqual([1, 2, 3]);
  });

  it("rethrows the close error after the buffered items", async () => {
    const channel = createEventChannel<string>();
    channel.push("a");
    channel.close(new Error("broken"));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const item of channel) seen.push(item);
      })(),
    ).rejects.toThrow("broken");
    expect(seen).toEqual(["a"]);
  });
});

describe("stream lifetime", () => {
  it("aborts the run when the consumer stops reading", async () => {
    let toolSignal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const long = defineTool({
      name: "long",
      description: "d",
      run: (_args, ctx) => {
        toolSignal = ctx?.signal;
        started();
        return new Promise(() => {});
      },
    });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "c1", name: "long" }] }]);
    const toolkit = await createToolkit({ builtins: false, extraTools: [long] });
    for await (const event of createClientFromDriver(driver).stream("go", { toolkit })) {
      if (event.type === "tool_call") {
        await running;
        break;
      }
    }
    expect(toolSignal?.aborted).toBe(true);
  });

  it("rejects with aborted while waitFor is still waiting", async () => {
    const controller = new AbortController();
    const gate = defineTool({
      name: "gate",
      description: "d",
      run: () => pending({ kind: "approval", prompt: "?" }),
    });
    const client = createClientFromDriver(
      createScriptedDriver([{ toolCalls: [{ id: "c1", name: "gate" }] }]),
      {
        waitFor: () => {
          controller.abort();
          return new Promise(() => {});
        },
      },
    );
    const toolkit = await createToolkit({ builtins: false, extraTools: [gate] });
    const error = await client.run("go", { toolkit, signal: controller.signal }).catch((e: unknown) => e);
    expect(isToolnexusError(error, "aborted")).toBe(true);
  });

  it("tells when the consumer has handled a number of items, and releases waiters on close", async () => {
    const channel = createEventChannel<number>();
    const order: string[] = [];
    channel.push(1);
    channel.push(2);
    const first = channel.taken(1).then(() => order.push("taken 1"));
    const third = channel.taken(3).then(() => order.push("taken 3"));
    const iterator = channel[Symbol.asyncIterator]();
    await iterator.next();
    order.push("handled 1");
    await iterator.next();
    await first;
    expect(order).toEqual(["handled 1", "taken 1"]);
    channel.close();
    await third;
    expect(order).toEqual(["handled 1", "taken 1", "taken 3"]);
    await expect(channel.taken(10)).resolves.toBeUndefined();
  });
});
