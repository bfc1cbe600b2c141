import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { encodeAnthropicReply } from "./encode-anthropic-reply";
import { encodeOpenAiReply } from "./encode-openai-reply";
import type { EncodedReply, StubReply, StubRequest, StubStyle } from "./stub-reply";

export type StubHandler = (request: StubRequest & { signal: AbortSignal }) => StubReply | Promise<StubReply>;

export interface StubLlmServerOptions {
  /** Pause between SSE events, so a client can watch a stream arrive. Default 0. */
  chunkDelayMs?: number;
}

export interface StubLlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What to pass as a client's `baseUrl` for that style (both serve under `/v1`). */
  baseUrl(style: StubStyle): string;
  /** Every request received, in arrival order; clear it with `requests.length = 0`. */
  requests: StubRequest[];
  close(): Promise<void>;
}

const ROUTES: Record<string, StubStyle> = {
  "/v1/chat/completions": "openai",
  "/chat/completions": "openai",
  "/v1/messages": "anthropic",
  "/messages": "anthropic",
};

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions and Anthropic
 * messages wire formats (JSON and SSE), answering each request with what `handler` returns.
 */
export async function createStubLlmServer(
  handler: StubHandler,
  options: StubLlmServerOptions = {},
): Promise<StubLlmServer> {
  const requests: StubRequest[] = [];
  const inFlight = new Set<AbortController>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}${++counter}`;

  const server = createServer((req, res) => {
    const disconnected = new AbortController();
    inFlight.add(disconnected);
    res.on("close", () => {
      inFlight.delete(disconnected);
      if (!res.writableFinished) disconnected.abort();
    });
    serve(req, res, disconnected.signal).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: { type: "stub_error", message: String(error) } });
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const path = (req.url ?? "/").split("?")[0]!;
    const style = ROUTES[path];
    if (!style) return sendJson(res, 404, { error: { type: "not_found", message: `No route for ${path}` } });
    if (req.method !== "POST") return sendJson(res, 405, { error: { type: "method_not_allowed" } });

    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(await readBody(req));
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error("not an object");
      body = parsed as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, {
        error: { type: "invalid_request_error", message: "Body is not a JSON object" },
      });
    }
    const request: StubRequest = { style, path, body, headers: flattenHeaders(req) };
    requests.push(request);

    const reply = await handler({ ...request, signal });
    if (signal.aborted) return;
    if ("drop" in reply) {
      req.socket.destroy();
      return;
    }
    if ("status" in reply) {
      const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(text);
      return;
    }
    if ("sseRaw" in reply) {
      res.writeHead(200, sseHeaders());
      res.write(reply.sseRaw);
      if (!reply.keepOpen) res.end();
      return;
    }
    const context = { request, nextId };
    const encoded: EncodedReply =
      style === "openai" ? encodeOpenAiReply(reply, context) : encodeAnthropicReply(reply, context);
    if (encoded.kind === "json") return sendJson(res, 200, encoded.body);
    res.writeHead(200, sseHeaders());
    for (const event of encoded.events) {
      if (signal.aborted) return;
      res.write(event);
      if (options.chunkDelayMs) await pause(options.chunkDelayMs, signal);
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: () => `${url}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const controller of inFlight) controller.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function sseHeaders(): Record<string, string> {
  return { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
