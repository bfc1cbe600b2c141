// The production entry's outermost guard on request bodies (ADR 0057). Next reads a request's
// body as it pleases: with the proxy in front it buffers up to 10 MB to hand the proxy a copy
// and quietly cuts the rest, so a limit kept only inside the app still lets a chunked body of
// any size be read. Here every body is read first, through the one counting reader, before
// anything else sees the request: one within the limit is handed on whole, as if it had just
// arrived; one past it, declared or counted, is answered 413 at once, and its connection is
// closed after a bounded read of what the client still sends (closeAfterAnswer), so the client
// can read the answer. Plain JavaScript because server.mjs uses it before anything is compiled.
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

/**
 * How long, and for how many more bytes, a refused client is read after its answer. Reading and
 * dropping costs only bandwidth; the bounds are set by what an ordinary client needs to read its
 * answer. Most clients send the whole body before they look for one, and between two machines
 * (or on loopback, where the kernel buffers tens of MB) much of it is already on its way when the
 * 413 leaves, so 8 MB past the answer lets a mistaken upload several times the limit (a photo, a
 * log file) be sent out and its answer read. Two seconds is far more than a client on a working
 * network needs to finish that or to see the answer and stop. Past either bound the client is
 * not sending anything the app could take, and is cut off rather than allowed to hold the
 * connection.
 */
export const LINGER_MS = 2_000;
export const LINGER_BYTES = 8 * MAX_BODY_BYTES;

/**
 * Closes the connection of a refused body without resetting it under the answer. A socket
 * destroyed while the client still sends is reset, and a reset drops whatever the client had
 * not read yet, the 413 included; a client busy writing often meets the reset as a failed write
 * (EPIPE, ECONNRESET) before it has read anything. So, as web servers' "lingering close" does,
 * the answer is followed by the end of the write side, and what still arrives is read and
 * dropped until the client ends its side, LINGER_MS pass or LINGER_BYTES more have come,
 * whichever is first; then the socket is destroyed.
 * @param {import("node:net").Socket} socket
 */
function closeAfterAnswer(socket) {
  // Node's server ends the connection of a finished `Connection: close` response through the
  // socket's destroySoon, which destroys it as soon as the answer is flushed.
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    const readBefore = socket.bytesRead;
    const stop = () => socket.destroy();
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    // The request is over: nothing more is parsed, so no piece of it, nor a request sent after
    // it on this connection, reaches anyone. Node's parser reads the socket through its own
    // 'data' listener (or straight from the handle until a 'data' listener is added, which
    // hands the reading back to the socket); with it gone, the bytes are counted and dropped.
    // A body nobody read (a declared length refused at once) has paused the socket; while the
    // parser still holds it, only the parser's own 'resume' listener can start it again.
    socket.emit("resume");
    socket.removeAllListeners("data");
    socket.on("data", () => {
      if (socket.bytesRead - readBefore > LINGER_BYTES) stop();
    });
    socket.resume();
    if (socket.readableEnded) {
      // The client has already ended its side: once the answer is flushed, both sides are done.
      socket.end(stop);
      return;
    }
    socket.once("end", stop);
    socket.end();
  };
}

/** @param {import("node:http").ServerResponse} res */
function refuseTooLarge(res) {
  // A client gone before its answer leaves no socket, and nothing to close.
  if (res.socket) closeAfterAnswer(res.socket);
  const body = JSON.stringify({ ...BODY_TOO_LARGE, issues: [] });
  res.writeHead(BODY_TOO_LARGE.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    // The rest of the body is dropped unparsed: the connection cannot carry another request.
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
