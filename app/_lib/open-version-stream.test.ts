import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryEventBus, type EventNotice } from "@/lib/engine/event-bus";
import { type NoticeFilter, openVersionStream } from "./open-version-stream";

const COALESCE_MS = 10;
// Far longer than any quiet period: a check a notice asked for has happened by then.
const LONG_AFTER = 100 * COALESCE_MS;

/** A stream over an in-process bus whose version never moves; counts its checks. */
function setup(isRelevant?: NoticeFilter) {
  const bus = createMemoryEventBus();
  const controller = new AbortController();
  const asked: string[] = [];
  let checks = 0;
  openVersionStream(
    {
      read: async () => "v1",
      ...(isRelevant
        ? {
            isRelevant: (notice: EventNotice) => {
              asked.push(notice.threadId);
              return isRelevant(notice);
            },
          }
        : {}),
      signal: controller.signal,
    },
    { bus },
    { coalesceMs: COALESCE_MS, onCheck: () => (checks += 1) },
  );
  return {
    bus,
    asked,
    stop: () => controller.abort(),
    /** Checks made so far, the one on connect included, once everything asked for has run. */
    async checks() {
      await vi.advanceTimersByTimeAsync(LONG_AFTER);
      return checks;
    },
  };
}

const mine = (notice: EventNotice) => notice.threadId.startsWith("mine");

describe("openVersionStream", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("checks for every notice when it has no filter", async () => {
    const stream = setup();
    expect(await stream.checks()).toBe(1);
    await stream.bus.publish({ threadId: "theirs", seq: 1 });
    expect(await stream.checks()).toBe(2);
    stream.stop();
  });

  it("checks only for notices the filter says may concern the viewer", async () => {
    const stream = setup(mine);
    expect(await stream.checks()).toBe(1);
    await stream.bus.publish({ threadId: "theirs", seq: 1 }, { threadId: "theirs-too", seq: 4 });
    expect(await stream.checks()).toBe(1);
    await stream.bus.publish({ threadId: "mine", seq: 2 });
    expect(await stream.checks()).toBe(2);
    expect(stream.asked).toEqual(["theirs", "theirs-too", "mine"]);
    stream.stop();
  });

  it("waits for a filter's late answer, then checks only if it says yes", async () => {
    const answers: Array<(relevant: boolean) => void> = [];
    const stream = setup(() => new Promise<boolean>((resolve) => answers.push(resolve)));
    expect(await stream.checks()).toBe(1);
    await stream.bus.publish({ threadId: "theirs", seq: 1 }, { threadId: "mine", seq: 1 });
    expect(await stream.checks()).toBe(1);
    answers[0]!(false);
    expect(await stream.checks()).toBe(1);
    answers[1]!(true);
    expect(await stream.checks()).toBe(2);
    stream.stop();
  });

  it("always checks after a resync, without asking the filter", async () => {
    const stream = setup(() => false);
    expect(await stream.checks()).toBe(1);
    await stream.bus.publish({ threadId: "theirs", seq: 1 });
    stream.bus.resync();
    expect(await stream.checks()).toBe(2);
    expect(stream.asked).toEqual(["theirs"]);
    stream.stop();
  });

  it("checks when the filter fails, whether it throws or rejects", async () => {
    const throwing = setup(() => {
      throw new Error("lookup failed");
    });
    expect(await throwing.checks()).toBe(1);
    await throwing.bus.publish({ threadId: "theirs", seq: 1 });
    expect(await throwing.checks()).toBe(2);
    throwing.stop();

    const rejecting = setup(() => Promise.reject(new Error("database unavailable")));
    expect(await rejecting.checks()).toBe(1);
    await rejecting.bus.publish({ threadId: "theirs", seq: 1 });
    expect(await rejecting.checks()).toBe(2);
    rejecting.stop();
  });

  it("ignores a filter's answer that comes after the viewer left", async () => {
    let answer: (relevant: boolean) => void = () => {};
    const stream = setup(() => new Promise<boolean>((resolve) => (answer = resolve)));
    expect(await stream.checks()).toBe(1);
    await stream.bus.publish({ threadId: "mine", seq: 1 });
    stream.stop();
    answer(true);
    expect(await stream.checks()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
