import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { auth } from "@/lib/auth/next-auth";
import { publishDirectRoutes } from "@/lib/http/direct-routes.mjs";
import { requestIdFor } from "@/lib/http/request-id";
import { createNonce, responseSecurityHeaders } from "@/lib/http/security-headers";
import { logger } from "@/lib/log/logger";
import { withRequestId } from "@/lib/log/request-id";
import { appBaseUrl } from "@/lib/oauth/app-url";
import { openStreamRoute } from "./define-stream-route";
import { matchStreamRoute } from "./stream-routes";

// next-auth's form for Node requests (its API-route form) reads only the request's headers and
// hands every cookie its session endpoint sets to the response. Next's own `auth()` drops those
// (a route cannot set cookies through it), so they are dropped here too and both ways a stream is
// served answer alike. Next gives every request X-Forwarded-Proto before the app sees it; without
// one next-auth assumes https and looks for the `__Secure-` cookie, so it is given here as well.
const nodeSession = auth as unknown as (
  req: { headers: IncomingMessage["headers"] },
  res: { appendHeader: () => void },
) => Promise<unknown>;

function readSession(req: IncomingMessage, https: boolean): Promise<unknown> {
  const headers = { ...req.headers, "x-forwarded-proto": https ? "https" : "http" };
  return nodeSession({ headers }, { appendHeader: () => {} });
}

/**
 * Serves a GET of one of the app's live streams (`STREAM_ROUTES`) on the node:http pair,
 * without Next's request pipeline: the same session check, revocation watch, drain and stream
 * as the route handler, with the headers the proxy gives every response. Returns false, leaving
 * the request to Next, for anything else. Why: ADR 0041.
 */
export function serveStreamDirectly(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" || !req.url?.startsWith("/") || req.url.startsWith("//")) return false;
  const url = new URL(req.url, appBaseUrl());
  const found = matchStreamRoute(url.pathname);
  if (!found) return false;
  const requestId = requestIdFor(firstValue(req.headers["x-request-id"]) ?? null);
  // Two steps, so that nothing of the opening (the URL, the headers, the Response) stays
  // referenced from a suspended frame for the hours a stream may stay open: only the body does.
  withRequestId(requestId, () =>
    openAndWriteHead(req, res, { url, requestId, ...found }).then((body) => pipeBody(body, res)),
  ).catch((error: unknown) => {
    logger.error({ err: error, requestId }, "Live stream failed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
  return true;
}

/** Hands `serveStreamDirectly` to server.mjs; called once the app's services are up. */
export function publishDirectStreams(): void {
  publishDirectRoutes(serveStreamDirectly);
}

/** Opens the stream and writes the response's head; resolves to the body still to send. */
async function openAndWriteHead(
  req: IncomingMessage,
  res: ServerResponse,
  {
    url,
    requestId,
    route,
    params,
  }: { url: URL; requestId: string } & NonNullable<ReturnType<typeof matchStreamRoute>>,
): Promise<ReadableStream<Uint8Array> | null> {
  const closed = new AbortController();
  res.once("close", () => closed.abort());
  // As the proxy decides it: how this request arrived (a trusted proxy's word, or TLS here).
  const viaHttps =
    firstValue(req.headers["x-forwarded-proto"]) === "https" || (req.socket as TLSSocket).encrypted === true;
  const response = await openStreamRoute(route, {
    readSession: () => readSession(req, viaHttps),
    url,
    params,
    signal: closed.signal,
  });
  const https = viaHttps || appBaseUrl().startsWith("https:");
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  const own = responseSecurityHeaders({
    nonce: createNonce(),
    requestId,
    dev: process.env.NODE_ENV === "development",
    https,
  });
  for (const [name, value] of Object.entries(own)) headers[name.toLowerCase()] = value;
  if (closed.signal.aborted) {
    await response.body?.cancel();
    return null;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  return response.body;
}

/** Copies the stream into the response, minding back-pressure; the client leaving cancels it. */
async function pipeBody(body: ReadableStream<Uint8Array> | null, res: ServerResponse): Promise<void> {
  if (!body) {
    if (!res.writableEnded) res.end();
    return;
  }
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await writable(res);
    }
    res.end();
  } finally {
    res.off("close", cancel);
  }
}

function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
