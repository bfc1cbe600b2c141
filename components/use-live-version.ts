"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { reconnectDelayMs } from "./reconnect-delay";

export type LiveState = "connecting" | "live" | "reconnecting" | "signed-out";

// EventSource retries a dropped connection by itself, but gives up for good on an error
// status (a 502 while the server restarts, a 401 once the session lapsed). It does not say
// which, so one plain request asks: a 401 means the session ended and no retry can help, so
// following stops; anything else opens a new stream, waiting longer each time
// (`reconnectDelayMs`, as the chat does).

/** Whether the stream's URL now answers 401; the probe is cancelled as soon as its status is in. */
async function sessionEnded(url: string): Promise<boolean> {
  const controller = new AbortController();
  try {
    const response = await fetch(url, { signal: controller.signal, cache: "no-store" });
    return response.status === 401;
  } catch {
    return false;
  } finally {
    controller.abort();
  }
}

/**
 * Keeps a server-rendered page current: follows a version stream (`openVersionStream`) at
 * `url` and re-renders the page (`router.refresh()`, which keeps client state such as
 * selections and typed text) whenever the version it is sent differs from the one the page
 * was rendered at. With `onChange`, a new version goes there instead of re-rendering the page,
 * for a stream whose version is itself what is shown (a count).
 */
export function useLiveVersion(
  url: string,
  pageVersion: string,
  onChange?: (version: string) => void,
): LiveState {
  const router = useRouter();
  const [state, setState] = useState<LiveState>("connecting");
  const known = useRef(pageVersion);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  // A render the viewer caused themselves (a bulk answer, new filters) is as current as it says.
  useEffect(() => {
    known.current = pageVersion;
  }, [pageVersion]);

  useEffect(() => {
    let source: EventSource | undefined;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    // `version` opens every connection, `changed` follows each change: either way, a version
    // the page does not show means the page is behind, including changes missed while away.
    const onVersion = (event: MessageEvent<string>) => {
      failures = 0;
      setState("live");
      if (event.data === known.current) return;
      known.current = event.data;
      if (changed.current) changed.current(event.data);
      else router.refresh();
    };

    const open = () => {
      reopenTimer = undefined;
      const next = new EventSource(url);
      next.addEventListener("version", onVersion);
      next.addEventListener("changed", onVersion);
      next.onerror = () => {
        setState("reconnecting");
        if (next.readyState !== EventSource.CLOSED) return;
        next.close();
        void sessionEnded(url).then((ended) => {
          if (stopped) return;
          if (ended) {
            setState("signed-out");
            return;
          }
          reopenTimer = setTimeout(open, reconnectDelayMs(failures));
          failures += 1;
        });
      };
      source = next;
    };

    open();
    return () => {
      stopped = true;
      if (reopenTimer) clearTimeout(reopenTimer);
      source?.close();
    };
  }, [router, url]);

  return state;
}
