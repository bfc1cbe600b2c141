import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "./body-limit.mjs";
import { createBodyLimitedServer, LINGER_BYTES } from "./limited-server.mjs";

// The production entry's guard on a real node:http server and real sockets: what its listener
// (Next, in server.mjs) sees, and how much of a refused body the server reads.
let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

async function start() {
  const seen: { method: string; bytes: number }[] = [];
  /** Bytes each connection read off its socket, recorded when it closes. */
  const socketReads: number[] = [];
  server = createBodyLimitedServer(async (req, res) => {
    let bytes = 0;
    for await (const chunk of req) bytes += (chunk as Buffer).length;
    seen.push({ method: req.method ?? "", bytes });
    res.end(`read ${bytes}`);
  });
  server.on("connection", (socket) => socket.on("close", () => socketReads.push(socket.bytesRead)));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, seen, socketReads };
}

/** Sends `size` bytes chunked (or with `Content-Length`), answering with what came back. */
function send(port: number, size: number, { declare = false, method = "POST" } = {}) {
  return new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: "/",
        headers: declare ? { "content-length": String(size) } : {},
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            ...(res.headers.connection ? { connection: res.headers.connection } : {}),
          }),
        );
      },
    );
    request.on("error", reject);
    if (size === 0) return void request.end();
    const piece = Buffer.alloc(64 * 1024, 0x78);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        const next = piece.subarray(0, Math.min(piece.length, size - sent));
        sent += next.length;
        if (!request.write(next)) return void request.once("drain", write);
      }
      request.end();
    };
    write();
  });
}

const tooLarge = JSON.stringify({
  code: "bad_request:body_too_large",
  status: 413,
  message: "The request body is larger than the 1 MB limit.",
  issues: [],
});

describe("createBodyLimitedServer", () => {
  it("answers a chunked body past the limit with 413 before the listener sees it, and stops reading", async () => {
    const { port, seen, socketReads } = await start();
    const reply = await send(port, 20 * 1024 * 1024).catch((error: NodeJS.ErrnoException) => error);
    // The answer comes while the client is still sending; the connection then closes.
    expect(reply).toEqual({ status: 413, body: tooLarge, connection: "close" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([]);
    expect(socketReads).toHaveLength(1);
    // Past the answer, what the client still sends is read only up to the lingering bound.
    expect(socketReads[0]).toBeLessThan(MAX_BODY_BYTES + LINGER_BYTES + 1024 * 1024);
  });

  it("refuses a declared length past the limit without reading the body", async () => {
    const { port, seen } = await start();
    expect(await send(port, MAX_BODY_BYTES + 1, { declare: true })).toMatchObject({
      status: 413,
      body: tooLarge,
    });
    expect(seen).toEqual([]);
  });

  it("hands a body within the limit over whole, chunked or declared, and bodiless requests at once", async () => {
    const { port, seen } = await start();
    expect(await send(port, MAX_BODY_BYTES)).toMatchObject({ status: 200, body: `read ${MAX_BODY_BYTES}` });
    expect(await send(port, 1000, { declare: true })).toMatchObject({ status: 200, body: "read 1000" });
    expect(await send(port, 0, { method: "GET" })).toMatchObject({ status: 200, body: "read 0" });
    expect(seen).toEqual([
      { method: "POST", bytes: MAX_BODY_BYTES },
      { method: "POST", bytes: 1000 },
      { method: "GET", bytes: 0 },
    ]);
  });
});
