import { StreamResponseError } from "./stream-response-error";

// When and how often the chat reattaches to a run whose stream was lost (the wait between tries
// is `reconnectDelayMs`). Pure, so the rules are tested on their own; the timers and browser
// events live in useReconnectingChat.

/** How one stream request ended. */
export type StreamEnd = { kind: "finished" } | { kind: "aborted" } | { kind: "failed"; error: unknown };

/** Failed reattaches after which the view stops saying "Reconnecting…" and shows an alert. */
export const ALERT_AFTER_FAILURES = 4;
/** Failed reattaches after which only Retry, going online or returning to the tab try again. */
export const GIVE_UP_AFTER_FAILURES = 10;

/**
 * True when the error says the connection, not the server's answer, was the problem. Browsers
 * report a refused or cut fetch as a TypeError ("Failed to fetch" and "network error" in
 * Chromium, "NetworkError…" and "Error in body stream" in Firefox, "Load failed" in Safari).
 * A 5xx is a server restarting or a proxy without its upstream; 408 and 429 ask to come back.
 * Other 4xx (a session that expired, a chat that is gone) will not change by asking again.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof StreamResponseError) {
    return error.status >= 500 || error.status === 408 || error.status === 429;
  }
  return error instanceof TypeError && /fetch|network|load failed|body stream/i.test(error.message);
}

/**
 * Whether to reattach after a stream ended, given whether its run was still running or parked
 * as far as the view knows. The server ends a run's stream only after the run has ended, so a
 * clean end while the run is live means something in between closed it. An abort is the view's
 * own doing, and an error the server sent in the stream is its answer, not a lost connection.
 */
export function shouldReattach(end: StreamEnd, runIsLive: boolean): boolean {
  if (!runIsLive) return false;
  switch (end.kind) {
    case "aborted":
      return false;
    case "finished":
      return true;
    case "failed":
      return isConnectionLoss(end.error);
  }
}

/** Whether to keep reattaching on a timer after `failures` failed reattaches in a row. */
export function shouldKeepTrying(failures: number): boolean {
  return failures < GIVE_UP_AFTER_FAILURES;
}

/** What the view says about a lost stream: quietly reconnecting, or an alert with Retry. */
export type ConnectionNotice = "reconnecting" | "lost" | "offline";

export function connectionNotice({
  failures,
  online,
}: {
  failures: number;
  online: boolean;
}): ConnectionNotice {
  if (!online) return "offline";
  return failures >= ALERT_AFTER_FAILURES ? "lost" : "reconnecting";
}
