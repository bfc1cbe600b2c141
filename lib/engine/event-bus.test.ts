import { describe, expect, it } from "vitest";
import { createMemoryEventBus, type EventNotice, RESYNC_NOTICE } from "./event-bus";

const notice = (threadId: string, seq: number): EventNotice => ({ threadId, seq });

describe("createMemoryEventBus", () => {
  it("hands a thread's listeners that thread's notices only", async () => {
    const bus = createMemoryEventBus();
    const heard: EventNotice[] = [];
    bus.listen("t1", (n) => heard.push(n));
    await bus.publish(notice("t1", 1), notice("t2", 1), notice("t1", 2));
    expect(heard).toEqual([notice("t1", 1), notice("t1", 2)]);
  });

  it("hands listenAll every thread's notices in publishing order, events included", async () => {
    const bus = createMemoryEventBus();
    const heard: EventNotice[] = [];
    bus.listenAll((n) => heard.push(n));
    const event = {
      type: "text" as const,
      delta: "hi",
      threadId: "t2",
      seq: 4,
      runId: "r1",
      createdAt: new Date(0).toISOString(),
    };
    await bus.publish(notice("t1", 3), { threadId: "t2", seq: 4, event });
    await bus.publish(notice("t1", 4));
    expect(heard).toEqual([notice("t1", 3), { threadId: "t2", seq: 4, event }, notice("t1", 4)]);
  });

  it("stops a listenAll listener when asked, and keeps the others going", async () => {
    const bus = createMemoryEventBus();
    const first: number[] = [];
    const second: number[] = [];
    const stopFirst = bus.listenAll((n) => first.push(n.seq));
    bus.listenAll((n) => second.push(n.seq));
    await bus.publish(notice("t1", 1));
    stopFirst();
    await bus.publish(notice("t1", 2));
    expect(first).toEqual([1]);
    expect(second).toEqual([1, 2]);
  });

  it("goes on delivering past a listener that throws", async () => {
    const bus = createMemoryEventBus();
    const heard: number[] = [];
    bus.listenAll(() => {
      throw new Error("broken subscriber");
    });
    bus.listen("t1", () => {
      throw new Error("broken subscriber");
    });
    bus.listenAll((n) => heard.push(n.seq));
    await bus.publish(notice("t1", 1), notice("t1", 2));
    expect(heard).toEqual([1, 2]);
  });

  it("asks thread listeners to re-read from seq 0 and listenAll listeners once on resync", () => {
    const bus = createMemoryEventBus();
    const perThread: EventNotice[] = [];
    const all: EventNotice[] = [];
    bus.listen("t1", (n) => perThread.push(n));
    bus.listen("t2", (n) => perThread.push(n));
    bus.listenAll((n) => all.push(n));
    bus.resync();
    expect(perThread).toEqual([notice("t1", 0), notice("t2", 0)]);
    expect(all).toEqual([RESYNC_NOTICE]);
  });

  it("forgets every listener on close", async () => {
    const bus = createMemoryEventBus();
    const heard: number[] = [];
    bus.listen("t1", (n) => heard.push(n.seq));
    bus.listenAll((n) => heard.push(n.seq));
    await bus.close();
    await bus.publish(notice("t1", 1));
    expect(heard).toEqual([]);
  });
});
