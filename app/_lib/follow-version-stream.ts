import { EventSourceParserStream } from "eventsource-parser/stream";
import { vi } from "vitest";
import { type EventBus, RESYNC_NOTICE } from "@/lib/engine/event-bus";
import type { VersionStreamOptions } from "./open-version-stream";
import type { ThreadOwnerCache } from "./thread-owner-cache";

// Test support for the version streams (`openVersionStream` and the routes built on it).

export type Sse = { event: string; data: string };

/** Reads server-sent events one at a time (comments and events without data skipped); null once the stream ends. */
export function sseReader(body: ReadableStream<Uint8Array>): () => Promise<Sse | null> {
  // The decoder takes any BufferSource, bytes included; the DOM types cannot say so for a pipe.
  const decode = new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>;
  const events = body.pipeThrough(decode).pipeThrough(new EventSourceParserStream()).getReader();
  return async () => {
    const { value, done } = await events.read();
    if (done) return null;
    return { event: value.event ?? "message", data: value.data };
  };
}

// Streams a failed test left open would hold timers into the next test.
const open = new Set<AbortController>();
const counters = new Set<{ mockRestore(): void }>();

/**
 * Aborts every stream `followVersionStream` opened and stops every `countScheduledChecks`;
 * for `afterEach`.
 */
export function abortFollowedStreams(): void {
  for (const controller of open) controller.abort();
  open.clear();
  for (const spy of counters) spy.mockRestore();
  counters.clear();
}

/**
 * Counts the checks that streams with a quiet period of `coalesceMs` ask for from now on: each
 * but the one on connect first waits on a timer of that length, so pick one nothing else in the
 * test uses. `setTimeout` keeps working as before; this only watches it.
 */
export function countScheduledChecks(coalesceMs: number): () => number {
  const spy = vi.spyOn(globalThis, "setTimeout");
  counters.add(spy);
  return () => spy.mock.calls.filter(([, ms]) => ms === coalesceMs).length;
}

/**
 * Opens a stream through `openStream` with a short quiet period. `settled` resolves once a
 * check has read everything committed before it was called.
 */
export function followVersionStream(
  bus: EventBus,
  openStream: (signal: AbortSignal, options: VersionStreamOptions) => Response,
  options: VersionStreamOptions = {},
) {
  const controller = new AbortController();
  open.add(controller);
  let checks = 0;
  const waiting: Array<() => void> = [];
  const response = openStream(controller.signal, {
    coalesceMs: 10,
    onCheck: () => {
      checks += 1;
      for (const resolve of waiting.splice(0)) resolve();
    },
    ...options,
  });
  const nextCheck = async () => {
    const before = checks;
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      // A resync, because it is the one notice every stream checks for, filtered or not.
      void bus.publish(RESYNC_NOTICE);
    });
    if (checks === before) throw new Error("woken without a check");
  };
  return {
    response,
    next: sseReader(response.body!),
    // The first check to finish may have started before the call; the one after it cannot have.
    settled: async () => {
      await nextCheck();
      await nextCheck();
    },
    stop: () => controller.abort(),
  };
}

/** Timers alive in this process: a stream that ended must leave none of its own behind. */
export const activeTimers = () =>
  process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

/**
 * Resolves once the owner of `threadId` is known and every stream that asked about it has acted
 * on the answer: callers asking while a query runs share it, and what they do with its answer
 * is promise callbacks, all run before the next turn of the event loop.
 */
export async function ownerOfThreadKnown(threadOwners: ThreadOwnerCache, threadId: string): Promise<void> {
  await threadOwners.ownerOf(threadId);
  await new Promise((resolve) => setImmediate(resolve));
}
