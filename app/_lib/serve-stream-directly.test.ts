import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import type { EventBus } from "@/lib/engine/event-bus";
import { serveDirectly } from "@/lib/http/direct-routes.mjs";
import type { AppServices } from "./app-services";
import { type Sse, sseReader } from "./follow-version-stream";
import { publishDirectStreams } from "./serve-stream-directly";

// The live streams as server.mjs serves them beside Next: a real node:http server offering
// every request to the published handler first, real sessions (next-auth's own cookie), the
// real engine and bus. What the handler leaves alone gets a 418 from this stand-in for Next.
// next-auth reads its secret when the app's instance is made, at import.
const SECRET = vi.hoisted(() => {
  const secret = "serve-stream-directly-test-secret-0123456789";
  process.env.AUTH_SECRET = secret;
  return secret;
});
const COOKIE = "authjs.session-token";

let db: Db;
let services: AppServices;
let base: string;
let server: Server;
/** Listeners the streams hold on the bus right now, so a test sees a stream let go. */
let listening = 0;

withTestEngine((started) => {
  db = started.db;
  const bus: EventBus = {
    ...started.bus,
    listenAll(onNotice) {
      listening += 1;
      const stop = started.bus.listenAll(onNotice);
      return () => {
        listening -= 1;
        stop();
      };
    },
  };
  services = { ...started, bus, mcp: undefined as never };
});

beforeAll(async () => {
  const holder = globalThis as { __toolnexusServices?: Promise<AppServices>; __toolnexusDb?: Db };
  holder.__toolnexusServices = Promise.resolve(services);
  holder.__toolnexusDb = db;
  publishDirectStreams();
  server = createServer((req, res) => {
    if (serveDirectly(req, res)) return;
    res.statusCode = 418;
    res.end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function cookieFor(user: SessionUser, sessionVersion = 0): Promise<string> {
  const token = { sub: user.id, name: user.name, email: user.email, role: user.role, sv: sessionVersion };
  return `${COOKIE}=${await encode({ salt: COOKIE, secret: SECRET, maxAge: 3600, token })}`;
}

async function firstEvent(response: Response): Promise<Sse | null> {
  return sseReader(response.body!)();
}

describe("live streams served beside Next", () => {
  it("refuses someone signed out with the public error and every security header", async () => {
    const response = await fetch(`${base}/api/inbox/stream`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "unauthorized:session" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("leaves every other request to Next", async () => {
    const reviewer = await newUser(db, "reviewer");
    const cookie = await cookieFor(reviewer);
    for (const [path, method] of [
      ["/inbox", "GET"],
      ["/api/inbox/stream", "POST"],
      ["/api/inbox/stream", "HEAD"],
      ["/api/inbox/stream/", "GET"],
      ["/api/inbox/streams", "GET"],
      ["/api/threads/%E0%A4%A/stream", "GET"],
    ] as const) {
      const response = await fetch(`${base}${path}`, { method, headers: { cookie } });
      expect(response.status, `${method} ${path}`).toBe(418);
    }
  });

  it("follows a reviewer's inbox and lets go of the bus when the client leaves", async () => {
    const reviewer = await newUser(db, "reviewer");
    const before = listening;
    const leave = new AbortController();
    const response = await fetch(`${base}/api/inbox/stream`, {
      headers: { cookie: await cookieFor(reviewer), "x-request-id": "req-direct-0001" },
      signal: leave.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-request-id")).toBe("req-direct-0001");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await firstEvent(response)).toMatchObject({ event: "version" });
    expect(listening).toBe(before + 1);
    leave.abort();
    await expect.poll(() => listening).toBe(before);
  });

  it("replays a parked run to its owner and hides it from anyone else", async () => {
    const owner = await newUser(db, "user");
    const { threadId } = await parkRequest(services, { owner, text: "refund order 4321 for $250" });
    const leave = new AbortController();
    const own = await fetch(`${base}/api/threads/${threadId}/stream`, {
      headers: { cookie: await cookieFor(owner) },
      signal: leave.signal,
    });
    expect(own.status).toBe(200);
    const next = sseReader(own.body!);
    const chunks: { type: string; data?: { status?: string } }[] = [];
    const parked = () => chunks.some((c) => c.type === "data-run" && c.data?.status === "pending");
    while (!parked()) {
      const event = await next();
      if (!event) break;
      if (event.data !== "[DONE]") chunks.push(JSON.parse(event.data));
    }
    expect(chunks[0]).toMatchObject({ type: "start" });
    expect(chunks.some((c) => c.type === "data-request")).toBe(true);
    leave.abort();

    const stranger = await newUser(db, "user");
    const foreign = await fetch(`${base}/api/threads/${threadId}/stream`, {
      headers: { cookie: await cookieFor(stranger) },
    });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: "not_found:thread" });
  });

  it("refuses a session that was revoked before the stream opened", async () => {
    const user = await newUser(db, "user");
    const cookie = await cookieFor(user);
    await db.user.update({ where: { id: user.id }, data: { sessionVersion: { increment: 1 } } });
    const response = await fetch(`${base}/api/inbox/count/stream`, { headers: { cookie } });
    expect(response.status).toBe(401);
  });
});
