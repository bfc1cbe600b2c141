import { describe, expect, it } from "vitest";
import { createNotifyQueue } from "./notify-queue";

/** A send that records its batches and stays out until released, counting overlaps. */
function recordingSend() {
  const batches: string[][] = [];
  const releases: (() => void)[] = [];
  let out = 0;
  let overlaps = 0;
  const send = (payloads: string[]) => {
    batches.push(payloads);
    out += 1;
    if (out > 1) overlaps += 1;
    return new Promise<void>((resolve) => {
      releases.push(() => {
        out -= 1;
        resolve();
      });
    });
  };
  const releaseNext = async () => {
    releases.shift()?.();
    // Lets the queue see the send settle and start the next one.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { send, batches, releaseNext, overlaps: () => overlaps };
}

const notice = (thread: string, seq: number) => ({ key: thread, seq, payload: () => `${thread}@${seq}` });

describe("the NOTIFY queue", () => {
  it("sends the first notices at once, and never a statement while another is out", async () => {
    const wire = recordingSend();
    const queue = createNotifyQueue(wire.send);
    let firstDone = false;
    const first = queue.notify([notice("a", 1)]).then(() => {
      firstDone = true;
    });
    expect(wire.batches).toEqual([["a@1"]]);
    const later = [queue.notify([notice("b", 1)]), queue.notify([notice("c", 4)])];
    // Queued behind the statement that is out.
    expect(wire.batches).toHaveLength(1);
    await wire.releaseNext();
    await first;
    expect(firstDone).toBe(true);
    expect(wire.batches).toEqual([["a@1"], ["b@1", "c@4"]]);
    await wire.releaseNext();
    await Promise.all(later);
    expect(wire.overlaps()).toBe(0);
  });

  it("folds the queued notices of one key to its highest seq, whatever order they came in", async () => {
    const wire = recordingSend();
    const queue = createNotifyQueue(wire.send);
    const all = [
      queue.notify([notice("a", 1)]),
      queue.notify([notice("a", 5), notice("b", 2)]),
      queue.notify([notice("a", 3)]),
      queue.notify([notice("b", 7), notice("b", 6)]),
    ];
    await wire.releaseNext();
    await wire.releaseNext();
    await Promise.all(all);
    expect(wire.batches).toEqual([["a@1"], ["a@5", "b@7"]]);
  });

  it("resolves its callers when a send fails, and goes on with the next batch", async () => {
    const batches: string[][] = [];
    let calls = 0;
    const queue = createNotifyQueue(async (payloads) => {
      batches.push(payloads);
      calls += 1;
      if (calls === 1) throw new Error("connection lost");
    });
    await Promise.all([queue.notify([notice("a", 1)]), queue.notify([notice("b", 1)])]);
    await queue.notify([notice("c", 1)]);
    expect(batches).toEqual([["a@1"], ["b@1"], ["c@1"]]);
  });

  it("sends nothing for no notices", async () => {
    const wire = recordingSend();
    await createNotifyQueue(wire.send).notify([]);
    expect(wire.batches).toEqual([]);
  });
});
