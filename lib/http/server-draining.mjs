// A server told to terminate stops being a place to open anything new: it refuses new
// connections, closes idle ones, and ends its long-lived streams so browsers and API clients
// reconnect to a peer behind the proxy at once, instead of meeting a half-stopped process or a
// connection cut mid-response when it exits. Plain JavaScript because the server entry
// (server.mjs) uses it before anything is compiled; the app imports the same module, and the two
// copies share one signal through a global symbol.

const KEY = Symbol.for("toolnexus.server-draining");

/** @returns {AbortController} */
function controller() {
  const holder = /** @type {Record<symbol, AbortController | undefined>} */ (globalThis);
  holder[KEY] ??= new AbortController();
  return holder[KEY];
}

/** Aborts once this process has begun to shut down; long-lived responses end with it. */
export function drainingSignal() {
  return controller().signal;
}

/**
 * `signal`, or the process beginning to shut down, whichever comes first. Not `AbortSignal.any`:
 * on Node 20 every signal it makes stays referenced from a long-lived source for good (about
 * 50 bytes a request, never freed); these listeners go as soon as either side aborts, and a
 * request's signal aborts when its response closes.
 * @param {AbortSignal} signal
 * @returns {AbortSignal}
 */
export function untilDraining(signal) {
  const draining = drainingSignal();
  const controller = new AbortController();
  if (signal.aborted || draining.aborted) {
    controller.abort(signal.aborted ? signal.reason : draining.reason);
    return controller.signal;
  }
  const stop = (/** @type {Event} */ event) => {
    signal.removeEventListener("abort", stop);
    draining.removeEventListener("abort", stop);
    controller.abort(/** @type {AbortSignal} */ (event.target).reason);
  };
  signal.addEventListener("abort", stop);
  draining.addEventListener("abort", stop);
  return controller.signal;
}

/** Marks the process as shutting down: every stream following `drainingSignal` ends. */
export function startDraining() {
  controller().abort();
}

/**
 * Drains `server` (a node:http server) on SIGTERM or SIGINT: no new connections, responses
 * already under way finish (each that has not started with `Connection: close`), streams end, and the process exits
 * once the last connection is gone or after `graceMs`. The engine's own handover on the same
 * signals holds that exit back until the runs it drives are released (hand-over-on-terminate).
 * @param {import("node:http").Server} server
 * @param {{ graceMs?: number }} [options]
 */
export function drainOnTerminate(server, { graceMs = 5_000 } = {}) {
  let draining = false;
  const exitCodes = { SIGTERM: 143, SIGINT: 130 };
  /** Responses whose headers may still be written: each will say `Connection: close`. */
  const underWay = new Set();
  server.prependListener("request", (_req, res) => {
    if (draining) {
      res.setHeader("Connection", "close");
      return;
    }
    underWay.add(res);
    res.once("close", () => underWay.delete(res));
  });
  /** @param {"SIGTERM" | "SIGINT"} signal */
  const onSignal = (signal) => {
    if (draining) return;
    draining = true;
    for (const res of underWay) if (!res.headersSent) res.setHeader("Connection", "close");
    underWay.clear();
    startDraining();
    const exit = () => process.exit(exitCodes[signal]);
    server.close(exit);
    // Keep-alive connections (the proxy's pool) are closed as soon as each falls idle.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.closeIdleConnections();
    setTimeout(() => {
      clearInterval(sweep);
      server.closeAllConnections();
      exit();
    }, graceMs).unref();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
