import http, { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import { createRequestRoute } from "@/app/api/v1/_lib/api-routes";
import { serveApiRoute } from "@/app/api/v1/_lib/define-api-route";
import { createRequestCall } from "@/app/api/v1/_lib/request-calls";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import { createApiToken } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { MAX_BODY_BYTES } from "@/lib/http/body-limit.mjs";
import { createBodyLimitedServer } from "@/lib/http/limited-server.mjs";
import { proxy } from "@/proxy";

// Request bodies over real HTTP, through what production puts in front of a route: the
// production entry's counting guard (server.mjs), then the proxy, then /api/v1/requests with the
// real engine over SQLite, or a server action. A second server without the outer guard is the
// app under `next start`, where the proxy and the route must hold the limits by themselves.

let db: Db;
let engine: Engine;
withTestEngine((started) => {
  ({ db, engine } = started);
});

const create = serveApiRoute(createRequestRoute, createRequestCall);
/** Calls of the stand-in server action that got past everything in front of it. */
let actionCalls = 0;
let reviewer: Awaited<ReturnType<typeof newUser>>;

async function chain(req: IncomingMessage, res: ServerResponse) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const withBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new NextRequest(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    ...(withBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as ConstructorParameters<typeof NextRequest>[1]);
  let response: Response = await proxy(request);
  if (response.headers.get("x-middleware-next") === "1") {
    if (request.headers.has("next-action")) {
      // What a server action does once the framework has decoded its arguments.
      actionCalls += 1;
      const [input] = JSON.parse(await request.text()) as [unknown];
      response = Response.json(await submitAnswer({ actor: reviewer, input }, { engine }).catch(String));
    } else response = await create(request, { params: Promise.resolve({}) }, { db, engine });
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

const servers: Server[] = [];
const ports = { guarded: 0, bare: 0 };
/** Requests that got past each server's entry into the app (the proxy and on). */
const entered = { guarded: 0, bare: 0 };
beforeAll(async () => {
  reviewer = await newUser(db, "reviewer");
  const listen = async (server: Server) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };
  const serve = (which: keyof typeof entered) => (req: IncomingMessage, res: ServerResponse) => {
    entered[which] += 1;
    chain(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  };
  ports.guarded = await listen(createBodyLimitedServer(serve("guarded")));
  ports.bare = await listen(createServer(serve("bare")));
});
afterAll(() => {
  for (const server of servers) server.closeAllConnections();
});

/**
 * One POST, sent chunked (no Content-Length) in 64 KB pieces; resolves with the status and JSON
 * body as soon as the answer comes, whether or not the server read everything.
 */
function post(port: number, path: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    // A server that refuses mid-body closes the connection under the rest of it.
    request.on("error", (error) => reject(error));
    const bytes = Buffer.from(body);
    let sent = 0;
    const write = () => {
      while (sent < bytes.length) {
        const piece = bytes.subarray(sent, sent + 64 * 1024);
        sent += piece.length;
        if (!request.write(piece)) {
          request.once("drain", write);
          return;
        }
      }
      request.end();
    };
    write();
  });
}

const nested = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { end: true };
  for (let i = 1; i < levels; i += 1) value = { a: value };
  return value;
};
const pointer = (prefix: string, levels: number) => `${prefix}/${Array(levels).fill("a").join("/")}`;
const tooLarge = {
  code: "bad_request:body_too_large",
  status: 413,
  message: "The request body is larger than the 1 MB limit.",
  issues: [],
};

async function apiToken() {
  const owner = await newUser(db, "user");
  const minted = mintApiToken();
  await createApiToken({
    db,
    userId: owner.id,
    name: "ci",
    scopes: ["requests:write"],
    expiresAt: null,
    limit: 20,
    ...minted,
  });
  return { owner, headers: { authorization: `Bearer ${minted.token}` } };
}

describe.each(["guarded", "bare"] as const)("request bodies, %s", (which) => {
  it("refuses a chunked 5 MB body on /api/v1/requests with a 413 in the error shape, storing nothing", async () => {
    const { owner, headers } = await apiToken();
    const body = JSON.stringify({
      kind: "approval",
      prompt: "Big?",
      data: { pad: "x".repeat(5 * 1024 * 1024) },
    });
    const before = entered[which];
    const reply = await post(ports[which], "/api/v1/requests", body, headers);
    expect(reply).toEqual({ status: 413, body: tooLarge });
    // The production entry answers it itself; without it, the app refuses it.
    expect(entered[which] - before).toBe(which === "guarded" ? 0 : 1);
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);
  });

  it("takes a body just under 1 MB as far as the route, which judges its fields", async () => {
    const { headers } = await apiToken();
    const shell = JSON.stringify({ kind: "approval", prompt: "Big?", data: { pad: "" } });
    const body = JSON.stringify({
      kind: "approval",
      prompt: "Big?",
      data: { pad: "x".repeat(MAX_BODY_BYTES - shell.length) },
    });
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const reply = await post(ports[which], "/api/v1/requests", body, headers);
    expect(reply.status).toBe(400);
    expect(reply.body.issues).toEqual([{ path: "/data", message: "must be at most 16 KB as JSON" }]);
  });

  it("refuses data nested 2,000 deep with a 400 naming the path, and takes it 63 deep", async () => {
    const { owner, headers } = await apiToken();
    const deep = await post(
      ports[which],
      "/api/v1/requests",
      JSON.stringify({ kind: "approval", prompt: "Deep?", data: nested(2_000) }),
      headers,
    );
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({
      code: "bad_request:input",
      status: 400,
      issues: [{ path: pointer("/data", 63), message: "is nested deeper than 64 levels" }],
    });
    expect(deep.body.message).toBe(
      `The request body is nested deeper than 64 levels (at ${pointer("/data", 63)}).`,
    );
    const within = await post(
      ports[which],
      "/api/v1/requests",
      JSON.stringify({ kind: "approval", prompt: "Deep enough?", data: nested(63) }),
      headers,
    );
    expect(within.status).toBe(201);
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(1);
  });

  it("refuses a repeated key with a 400 naming it, storing nothing", async () => {
    const { owner, headers } = await apiToken();
    const body = '{"kind":"approval","prompt":"Ship it?","data":{"env":"staging","env":"production"}}';
    const reply = await post(ports[which], "/api/v1/requests", body, headers);
    expect(reply).toEqual({
      status: 400,
      body: {
        code: "bad_request:input",
        status: 400,
        message: 'The request body repeats the key "env" in one object (at /data/env).',
        issues: [{ path: "/data/env", message: "repeats a key of the same object" }],
      },
    });
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);
  });

  it("refuses a chunked 5 MB server action call before the action runs, leaving the request open", async () => {
    const owner = await newUser(db, "user");
    const { requestId } = await parkRequest({ db, engine }, { owner, text: "refund order 4321 for $250" });
    const port = ports[which];
    const action = (body: string) =>
      post(port, "/requests/x", body, {
        "next-action": "0123abcd",
        "content-type": "text/plain;charset=UTF-8",
        origin: `http://127.0.0.1:${port}`,
      });
    const before = actionCalls;
    const answer = { ok: true, data: { note: "x".repeat(5 * 1024 * 1024) } };
    expect(await action(JSON.stringify([{ requestId, answer }]))).toEqual({ status: 413, body: tooLarge });

    const deep = await action(JSON.stringify([{ requestId, answer: { ok: true, data: nested(2_000) } }]));
    expect(deep.status).toBe(400);
    expect(deep.body.issues).toEqual([
      { path: pointer("/0/answer/data", 61), message: "is nested deeper than 64 levels" },
    ]);
    const twice = await action(`[{"requestId":"${requestId}","answer":{"ok":false},"answer":{"ok":true}}]`);
    expect([twice.status, twice.body.issues]).toEqual([
      400,
      [{ path: "/0/answer", message: "repeats a key of the same object" }],
    ]);
    expect(actionCalls).toBe(before);
    expect((await db.request.findUniqueOrThrow({ where: { id: requestId } })).status).toBe("open");

    // Just under the limit, the action runs (and the engine judges the answer's size).
    const shell = JSON.stringify([{ requestId, answer: { ok: true, data: { note: "" } } }]);
    const near = await action(
      JSON.stringify([
        { requestId, answer: { ok: true, data: { note: "x".repeat(MAX_BODY_BYTES - shell.length) } } },
      ]),
    );
    expect(near.status).toBe(200);
    expect(actionCalls).toBe(before + 1);
    expect((await db.request.findUniqueOrThrow({ where: { id: requestId } })).status).toBe("open");
  });
});
