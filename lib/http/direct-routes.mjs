// Requests the app answers beside Next instead of through it. The live streams stay open for
// as long as a page is, and a response Next's request pipeline serves holds about 80 KB for as
// long as it is open (its async frames from the router down to the pipe into the socket); the
// app's own share is a few KB. So the app, once started, publishes one handler here and the
// production entry (server.mjs) offers it every request first. Plain JavaScript for the same
// reason as the draining module: server.mjs uses it before anything is compiled, and the app's
// compiled copy shares the handler with it through a global symbol. See ADR 0041.

const KEY = Symbol.for("toolnexus.direct-routes");

/**
 * @typedef {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean} DirectHandler
 * Takes the request and returns true when it answers it itself, false to leave it to Next.
 */

/** @param {DirectHandler} handler */
export function publishDirectRoutes(handler) {
  /** @type {Record<symbol, DirectHandler | undefined>} */ (globalThis)[KEY] = handler;
}

/**
 * Offers the request to the app's published handler; false (Next serves it) before the app has
 * published one, as under `next dev`, which has no server.mjs.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @returns {boolean}
 */
export function serveDirectly(req, res) {
  const handler = /** @type {Record<symbol, DirectHandler | undefined>} */ (globalThis)[KEY];
  return handler ? handler(req, res) : false;
}
