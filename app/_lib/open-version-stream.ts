import { type EventBus, type EventNotice, RESYNC_NOTICE } from "@/lib/engine/event-bus";
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
 * Pokes for a notice that may concern the viewer. A resync stands for notices the bus may have
 * missed, so it always counts; so does a notice whose filter failed, which costs one check at
 * most. An answer that takes a while pokes when it comes: the check then still reads what the
 * notice announced, which was committed before it was sent.
 */
function hear(notice: EventNotice, isRelevant: NoticeFilter | undefined, poke: () => void): void {
  if (!isRelevant || notice.threadId === RESYNC_NOTICE.threadId) {
    poke();
    return;
  }
  let verdict: boolean | Promise<boolean>;
  try {
    verdict = isRelevant(notice);
  } catch {
    poke();
    return;
  }
  if (typeof verdict === "boolean") {
    if (verdict) poke();
    return;
  }
  verdict.then(
    (relevant) => {
      if (relevant) poke();
    },
    () => poke(),
  );
}

/** Whether a notice may concern the viewer; false only when it certainly does not. */
export type NoticeFilter = (notice: EventNotice) => boolean | Promise<boolean>;

/**
 * Server-sent events telling one viewer when something server-rendered they look at changed:
 * `event: version` with `read()`'s version on connect, then `event: changed` with the new one
 * whenever a committed event moved it. The page re-renders itself; the stream carries no rows,
 * so it shows nothing the viewer's next page load would not. Every notice on the bus is a hint
 * to check, unless `isRelevant` says it cannot concern the viewer: what the viewer may see
 * stays `read`'s business, the filter only spares checks that could not find a change.
 */
export function openVersionStream(
  {
    read,
    isRelevant,
    signal,
  }: { read: () => Promise<string>; isRelevant?: NoticeFilter; signal: AbortSignal },
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
      const stopListening = bus.listenAll((notice) => hear(notice, isRelevant, () => watch.poke()));
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
