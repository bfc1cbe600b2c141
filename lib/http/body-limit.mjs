// The one limit on what a request may send, and the one reader that enforces it by counting
// the bytes as they arrive. A declared Content-Length is only a claim, and a chunked body
// declares none, so the limit is kept while reading: the reader stops at the first byte past
// it and never holds more than the limit. The production entry (server.mjs, through
// limited-server.mjs), the proxy and the routes that parse bodies all read through it. Plain
// JavaScript because server.mjs uses it before anything is compiled. See ADR 0057.

/** The most any request may send: forms, answers, actions and API calls are far below it. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The refusal of a body over the limit, in the shape of the app's errors. */
export const BODY_TOO_LARGE = Object.freeze({
  code: "bad_request:body_too_large",
  status: 413,
  message: "The request body is larger than the 1 MB limit.",
});

/**
 * Reads a body (a web ReadableStream or a Node stream: anything iterable chunk by chunk) to
 * its end, or until it has passed `limit` bytes; then it stops and lets the stream go (a web
 * stream is cancelled, a Node stream destroyed), so nothing more is read. It does not wait for
 * that to finish: cancelling one branch of a cloned request settles only once the other branch
 * is cancelled too, which may be never.
 * @param {AsyncIterable<Uint8Array>} chunks
 * @param {number} [limit]
 * @returns {Promise<{ status: "ok"; bytes: Uint8Array } | { status: "too_large" }>}
 */
export async function readBodyWithin(chunks, limit = MAX_BODY_BYTES) {
  const iterator = chunks[Symbol.asyncIterator]();
  /** @type {Uint8Array[]} */
  const parts = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    size += next.value.byteLength;
    if (size > limit) {
      void Promise.resolve(iterator.return?.()).catch(() => {});
      return { status: "too_large" };
    }
    parts.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return { status: "ok", bytes };
}
