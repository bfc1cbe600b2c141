// The production entry's outermost guard on request bodies (ADR 0057). Next reads a request's
// body as it pleases: with the proxy in front it buffers up to 10 MB to hand the proxy a copy
// and quietly cuts the rest, so a limit kept only inside the app still lets a chunked body of
// any size be read. Here every body is read first, through the one counting reader, before
// anything else sees the request: one within the limit is handed on whole, as if it had just
// arrived; one past it is answered 413 at once, and the connection is closed instead of being
// read any further. Plain JavaScript because server.mjs uses it before anything is compiled.
import { createServer, IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { BODY_TOO_LARGE, MAX_BODY_BYTES, readBodyWithin } from "./body-limit.mjs";

/**
 * A request whose body can be held back. Node's HTTP parser hands every piece of a body to the
 * request's `push` (the way any Readable's source feeds it); while held, the pieces go to the
 * holder instead, and the request itself receives the body only when it is released.
 */
class HeldBodyRequest extends IncomingMessage {
  /** @type {PassThrough | null} */
  #held = null;

  /** @param {PassThrough} holder */
  hold(holder) {
    this.#held = holder;
  }

  /** @param {Uint8Array} bytes */
  release(bytes) {
    this.#held = null;
    if (bytes.byteLength > 0) super.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    super.push(null);
  }

  /**
   * @param {any} chunk
   * @param {BufferEncoding} [encoding]
   */
  push(chunk, encoding) {
    const held = this.#held;
    if (!held) return super.push(chunk, encoding);
    // Once the holder has given up (the limit was passed), what still arrives is dropped.
    if (held.destroyed) return true;
    if (chunk === null) held.end();
    else held.write(chunk);
    return true;
  }
}

/** How long, and for how many more bytes, a refused client is read after its answer. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 2 * MAX_BODY_BYTES;

/**
 * Closes the connection of a refused body without resetting it under the answer. A socket
 * destroyed while the client still sends is reset, and a reset drops whatever the client had
 * not read yet, the 413 included. So, as web servers' "lingering close" does, the answer is
 * followed by the end of the write side, and what still arrives is read and dropped until the
 * client stops, LINGER_MS pass or LINGER_BYTES more have come, whichever is first.
 * @param {import("node:net").Socket} socket
 */
function closeAfterAnswer(socket) {
  // Node's server calls destroySoon once a `Connection: close` response is finished.
  socket.destroySoon = () => {
    socket.end();
    const readBefore = socket.bytesRead;
    const stop = () => socket.destroy();
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    socket.on("data", () => {
      if (socket.bytesRead - readBefore > LINGER_BYTES) stop();
    });
    socket.once("end", stop);
    socket.once("close", () => clearTimeout(timer));
  };
}

/** @param {import("node:http").ServerResponse} res */
function refuseTooLarge(res) {
  closeAfterAnswer(res.socket);
  const body = JSON.stringify({ ...BODY_TOO_LARGE, issues: [] });
  res.writeHead(BODY_TOO_LARGE.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    // The rest of the body is not read: the connection cannot carry another request.
    Connection: "close",
  });
  res.end(body);
}

/**
 * A node:http server whose `listener` sees a request only once its body is known to be within
 * `limit` bytes, and then with the whole body. Requests without a body pass at once.
 * @param {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void} listener
 * @param {{ limit?: number }} [options]
 */
export function createBodyLimitedServer(listener, { limit = MAX_BODY_BYTES } = {}) {
  return createServer({ IncomingMessage: HeldBodyRequest }, (req, res) => {
    const request = /** @type {HeldBodyRequest} */ (req);
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > limit) {
      refuseTooLarge(res);
      return;
    }
    const hasBody =
      declared === undefined ? req.headers["transfer-encoding"] !== undefined : Number(declared) > 0;
    if (!hasBody) {
      listener(req, res);
      return;
    }
    const holder = new PassThrough();
    request.hold(holder);
    // A client that goes away mid-body leaves nothing waiting.
    req.once("close", () => holder.destroy());
    readBodyWithin(holder, limit).then(
      (read) => {
        if (read.status === "too_large") refuseTooLarge(res);
        else {
          request.release(read.bytes);
          listener(req, res);
        }
      },
      () => res.destroy(),
    );
  });
}
