import { type EventBus, RESYNC_NOTICE } from "@/lib/engine/event-bus";
import type { VersionStreamOptions } from "./open-version-stream";

// Test support for the version streams (`openVersionStream` and the routes built on it).

export type Sse = { event: string; data: string };

/** Reads server-sent events one at a time, skipping comment lines; null once the stream ends. */
export function sseReader(body: ReadableStream<Uint8Array>): () => Promise<Sse | null> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return async () => {
    for (;;) {
      const cut = buffer.indexOf("\n\n");
      if (cut !== -1) {
        const lines = buffer.slice(0, cut).split("\n");
        buffer = buffer.slice(cut + 2);
        const field = (name: string) =>
          lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
        const data = field("data");
        if (data !== undefined) return { event: field("event") ?? "message", data };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

// Streams a failed test left open would hold timers into the next test.
const open = new Set<AbortController>();

/** Aborts every stream `followVersionStream` opened; for `afterEach`. */
export function abortFollowedStreams(): void {
  for (const controller of open) controller.abort();
  open.clear();
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
