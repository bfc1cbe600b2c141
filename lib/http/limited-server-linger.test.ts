import type { Server } from "node:http";
import { type AddressInfo, createConnection, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "./body-limit.mjs";
import { createBodyLimitedServer, LINGER_BYTES, LINGER_MS } from "./limited-server.mjs";

// How the production entry's guard closes the connection of a body it refused, seen from raw
// clients on real sockets: a client that sends its whole body anyway reads the 413 and meets no
// reset, and one that never stops, or stops without ending its side, is cut off within the bounds.

const MB = 1024 * 1024;
const tooLarge = JSON.stringify({
  code: "bad_request:body_too_large",
  status: 413,
  message: "The request body is larger than the 1 MB limit.",
  issues: [],
});

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A server whose listener reads and counts each body; `closed(n)` waits for n connections to close. */
async function start() {
  const seen: number[] = [];
  const closes: { bytesRead: number; at: number }[] = [];
  let onClose = () => {};
  server = createBodyLimitedServer(async (req, res) => {
    let bytes = 0;
    for await (const chunk of req) bytes += (chunk as Buffer).length;
    seen.push(bytes);
    res.end(`read ${bytes}`);
  });
  server.on("connection", (socket: Socket) => {
    socket.on("close", () => {
      closes.push({ bytesRead: socket.bytesRead, at: Date.now() });
      onClose();
    });
  });
  const closed = (count: number) =>
    new Promise<typeof closes>((resolve) => {
      onClose = () => {
        if (closes.length >= count) resolve(closes);
      };
      onClose();
    });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, seen, closed };
}

/**
 * A raw client that sends `size` bytes of body (declaring `declared`, `size` unless said, or
 * chunked) in 64 KB pieces as fast as
 * the socket takes them, without looking for an answer; then ends its side ("end"), sends 1 KB
 * every 100 ms for good ("trickle") or goes quiet without ending ("silence"). It keeps its side
 * open when the server ends its own, as a client busy sending does. `closed` settles when the
 * connection is gone, with all the client read and the first error it met.
 */
function rawPost(
  port: number,
  framing: "declared" | "chunked",
  size: number,
  {
    afterwards = "end",
    declared = size,
  }: { afterwards?: "end" | "trickle" | "silence"; declared?: number } = {},
) {
  const socket = createConnection({ host: "127.0.0.1", port, allowHalfOpen: true });
  const seen = { text: "", answeredAt: 0, error: undefined as string | undefined };
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    seen.text += chunk;
    if (!seen.answeredAt && seen.text.endsWith(tooLarge)) seen.answeredAt = Date.now();
  });
  socket.on("error", (error: NodeJS.ErrnoException) => {
    seen.error ??= error.code;
  });
  const closed = new Promise<typeof seen>((resolve) => socket.on("close", () => resolve(seen)));
  const frame = (bytes: Buffer) =>
    framing === "chunked"
      ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
      : bytes;
  const piece = frame(Buffer.alloc(64 * 1024, 0x78));
  const length = framing === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${declared}`;
  socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n${length}\r\n\r\n`);
  let sent = 0;
  const write = () => {
    while (sent < size) {
      if (!socket.writable) return;
      sent += 64 * 1024;
      if (!socket.write(piece)) return void socket.once("drain", write);
    }
    if (afterwards === "end") {
      if (framing === "chunked") socket.end("0\r\n\r\n");
      else socket.end();
    }
    if (afterwards === "trickle") {
      const timer = setInterval(() => {
        if (socket.writable) socket.write(frame(Buffer.alloc(1024, 0x78)));
      }, 100);
      socket.once("close", () => clearInterval(timer));
    }
  };
  write();
  return { socket, seen, closed };
}

/** What a client read: the status line, the `Connection` header and the body, or its error. */
function answer(seen: { text: string; error?: string }) {
  if (seen.error) return seen.error;
  const [head = "", body] = seen.text.split("\r\n\r\n");
  return { status: head.split("\r\n")[0], closes: /\r\nConnection: close\r\n/i.test(`${head}\r\n`), body };
}
const refused = { status: "HTTP/1.1 413 Payload Too Large", closes: true, body: tooLarge };

describe("the connection of a refused body", () => {
  it.each(["declared", "chunked"] as const)(
    "lets a client that sends 5 MB %s without looking read its 413, twenty times out of twenty",
    async (framing) => {
      const { port, seen, closed } = await start();
      const answers = [];
      for (let i = 0; i < 20; i += 1) answers.push(answer(await rawPost(port, framing, 5 * MB).closed));
      expect(answers).toEqual(Array(20).fill(refused));
      // Each connection read the whole body, none of it reached the listener, and the server
      // still serves a body within the limit.
      for (const close of await closed(20)) expect(close.bytesRead).toBeGreaterThan(5 * MB);
      expect(seen).toEqual([]);
      const within = await rawPost(port, framing, 64 * 1024).closed;
      expect(within.text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nread 65536$/);
    },
  );

  it("cuts off a client that never stops sending once LINGER_BYTES more have come", async () => {
    const { port, closed } = await start();
    const started = Date.now();
    const client = await rawPost(port, "chunked", Number.POSITIVE_INFINITY).closed;
    const close = (await closed(1))[0]!;
    // What came before the answer, the bound, and at most one more read past it.
    expect(close.bytesRead).toBeGreaterThan(MAX_BODY_BYTES + LINGER_BYTES);
    expect(close.bytesRead).toBeLessThan(MAX_BODY_BYTES + LINGER_BYTES + MB);
    expect(close.at - started).toBeLessThan(LINGER_MS);
    expect(client.error).toMatch(/^(ECONNRESET|EPIPE)$/);
  });

  it("cuts off a client that keeps sending slowly LINGER_MS after its answer", async () => {
    const { port, closed } = await start();
    const client = await rawPost(port, "chunked", 2 * MB, { afterwards: "trickle" }).closed;
    const close = (await closed(1))[0]!;
    expect(answer({ text: client.text })).toEqual(refused);
    expect(close.at - client.answeredAt).toBeGreaterThan(LINGER_MS - 200);
    expect(close.at - client.answeredAt).toBeLessThan(LINGER_MS + 1_000);
  });

  it.each(["declared", "chunked"] as const)(
    "closes the connection of a client that stops sending a %s body LINGER_MS after its answer",
    async (framing) => {
      const { port, closed } = await start();
      // A declared 5 MB body none of which comes, or 2 MB of a chunked one; then nothing.
      const client =
        framing === "declared"
          ? rawPost(port, framing, 0, { declared: 5 * MB, afterwards: "silence" })
          : rawPost(port, framing, 2 * MB, { afterwards: "silence" });
      const close = (await closed(1))[0]!;
      expect(answer(client.seen)).toEqual(refused);
      expect(close.at - client.seen.answeredAt).toBeGreaterThan(LINGER_MS - 200);
      expect(close.at - client.seen.answeredAt).toBeLessThan(LINGER_MS + 1_000);
      client.socket.destroy();
    },
  );
});
