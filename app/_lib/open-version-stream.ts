import type { EventBus } from "@/lib/engine/event-bus";
import { watchVersion } from "./watch-version";

export interface VersionStreamOptions {
  /** How long a burst of notices is gathered into one version check. */
  coalesceMs?: number;
  keepAliveMs?: number;
  /** After every version check, with the version read (tests wait on it). */
  onCheck?: (version: string) => void;
}

// A comment line now and then keeps proxies from closing a stream that is quietly waiting.
const KEEP_ALIVE_MS = 15_000;
// Enough to fold a reply's text deltas into one check; short enough to feel live.
const COALESCE_MS = 500;

const encoder = new TextEncoder();

/**
 * Server-sent events telling one viewer when something server-rendered they look at changed:
 * `event: version` with `read()`'s version on connect, then `event: changed` with the new one
 * whenever a committed event anywhere moved it. The page re-renders itself; the stream carries
 * no rows, so it shows nothing the viewer's next page load would not. Every notice on the bus
 * counts as a hint, whatever its thread, because what the viewer may see is `read`'s business.
 */
export function openVersionStream(
  { read, signal }: { read: () => Promise<string>; signal: AbortSignal },
  { bus }: { bus: EventBus },
  { coalesceMs = COALESCE_MS, keepAliveMs = KEEP_ALIVE_MS, onCheck }: VersionStreamOptions = {},
): Response {
  let finish = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let done = false;
      const send = (text: string) => {
        if (!done) controller.enqueue(encoder.encode(text));
      };
      const watch = watchVersion({
        read,
        onVersion: (version, first) => send(`event: ${first ? "version" : "changed"}\ndata: ${version}\n\n`),
        ...(onCheck ? { onCheck } : {}),
        // Closing makes the browser reconnect, and the version it is sent then settles the rest.
        onError: () => finish(),
        coalesceMs,
      });
      const stopListening = bus.listenAll(() => watch.poke());
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), keepAliveMs);
      finish = () => {
        if (done) return;
        done = true;
        stopListening();
        watch.stop();
        clearInterval(keepAlive);
        signal.removeEventListener("abort", finish);
        try {
          controller.close();
        } catch {
          // Already cancelled by the reader.
        }
      };
      if (signal.aborted) finish();
      else signal.addEventListener("abort", finish);
    },
    cancel() {
      finish();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
