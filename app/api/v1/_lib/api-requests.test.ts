import { describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import type { SessionUser } from "@/lib/auth/session-user";
import { type ApiTokenScope, createApiToken, revokeApiTokenById } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import {
  cancelRequestRoute,
  createRequestRoute,
  listRequestsRoute,
  readRequestRoute,
  requestEventsRoute,
} from "./api-routes";
import { serveApiRoute } from "./define-api-route";
import {
  cancelRequestCall,
  createRequestCall,
  listRequestsCall,
  readRequestCall,
  requestEventsCall,
} from "./request-calls";

let db: Db;
let engine: Engine;
withTestEngine((started) => {
  ({ db, engine } = started);
});

const BASE = "http://app.test/api/v1/requests";
const create = serveApiRoute(createRequestRoute, createRequestCall);
const list = serveApiRoute(listRequestsRoute, listRequestsCall);
const read = serveApiRoute(readRequestRoute, readRequestCall);
const cancel = serveApiRoute(cancelRequestRoute, cancelRequestCall);
const events = serveApiRoute(requestEventsRoute, requestEventsCall);
const noParams = { params: Promise.resolve({}) };
const idParams = (id: string) => ({ params: Promise.resolve({ id }) });

async function tokenFor(
  user: SessionUser,
  scopes: ApiTokenScope[] = ["requests:write", "requests:read"],
  expiresAt: Date | null = null,
) {
  const minted = mintApiToken();
  const created = await createApiToken({
    db,
    userId: user.id,
    name: "agent",
    scopes,
    expiresAt,
    limit: 20,
    ...minted,
  });
  if (created.status !== "created") throw new Error("the token limit was reached");
  return { token: minted.token, id: created.row.id };
}

function post(token: string | null, body: unknown, headers: Record<string, string> = {}) {
  return new Request(BASE, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function get(token: string, url: string) {
  return new Request(url, { headers: { authorization: `Bearer ${token}` } });
}

const services = () => ({ db, engine });
const approval = {
  kind: "approval",
  prompt: "Ship build 812 to production?",
  data: { schema: { type: "object", properties: { note: { type: "string" } } } },
};

describe("the requests API with tokens", () => {
  it("makes a request a reviewer answers in the inbox, and returns the §10 answer", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { token } = await tokenFor(owner);
    const made = await create(post(token, approval), noParams, services());
    expect(made.status).toBe(201);
    const request = await made.json();
    expect(request).toMatchObject({ kind: "approval", status: "open", audience: "reviewers" });
    expect(request).not.toHaveProperty("answer");
    expect(made.headers.get("location")).toBe(`/api/v1/requests/${request.id}`);

    const waiting = read(get(token, `${BASE}/${request.id}?wait=20`), idParams(request.id), services());
    await submitAnswer(
      { actor: reviewer, input: { requestId: request.id, answer: { ok: true, data: { note: "go" } } } },
      { engine },
    );
    const answered = await (await waiting).json();
    expect(answered).toMatchObject({
      status: "answered",
      answer: { id: request.id, ok: true, data: { note: "go" } },
    });

    const listed = await (await list(get(token, BASE), noParams, services())).json();
    expect(listed.requests.map((r: { id: string }) => r.id)).toEqual([request.id]);
    expect(listed.next).toBeNull();
  });

  it("streams the request as server-sent events until it is answered, then ends", async () => {
    const owner = await newUser(db, "user");
    const { token } = await tokenFor(owner);
    const made = await (
      await create(post(token, { kind: "question", prompt: "Tea?" }), noParams, services())
    ).json();
    const response = await events(get(token, `${BASE}/${made.id}/events`), idParams(made.id), services());
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n\n")) text += (await reader.read()).value ?? "";
    expect(text).toContain('"status":"open"');
    await engine.answerRequest({
      requestId: made.id,
      actor: owner,
      answer: { ok: true, data: { tea: "yes" } },
    });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    const sent = text
      .split("\n\n")
      .filter((block) => block.startsWith("event: request"))
      .map((block) => JSON.parse(block.split("data: ")[1]!));
    expect(sent.map((request) => request.status)).toEqual(["open", "answered"]);
    expect(sent[1].answer).toEqual({ id: made.id, ok: true, data: { tea: "yes" } });
    const unknown = await events(get(token, `${BASE}/nope/events`), idParams("nope"), services());
    expect([unknown.status, (await unknown.json()).code]).toEqual([404, "not_found:request"]);
  });

  it("ends an event stream once its token is revoked", async () => {
    const owner = await newUser(db, "user");
    const { token, id } = await tokenFor(owner);
    const made = await (
      await create(post(token, { kind: "question", prompt: "Coffee?" }), noParams, services())
    ).json();
    const response = await events(get(token, `${BASE}/${made.id}/events`), idParams(made.id), {
      ...services(),
      streamHeartbeatMs: 50,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes(": still open")) text += (await reader.read()).value ?? "";
    await revokeApiTokenById({ db, id, actorId: owner.id });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    // The stream ended with the request still open: nothing but the first event was sent.
    expect(text.match(/event: request/g)).toHaveLength(1);
  });

  it("refuses a missing, unknown, revoked or expired token and the wrong scope, storing nothing", async () => {
    const owner = await newUser(db, "user");
    const readOnly = await tokenFor(owner, ["requests:read"]);
    const revoked = await tokenFor(owner);
    await revokeApiTokenById({ db, id: revoked.id, actorId: owner.id });
    const expired = await tokenFor(owner, ["requests:write"], new Date(Date.now() - 1000));
    const cases: [string | null, number, string][] = [
      [null, 401, "unauthorized:token"],
      ["tnx_not-a-token", 401, "unauthorized:token"],
      [revoked.token, 401, "unauthorized:token"],
      [expired.token, 401, "unauthorized:token"],
      [readOnly.token, 403, "forbidden:scope"],
    ];
    for (const [token, status, code] of cases) {
      const response = await create(post(token, approval), noParams, services());
      expect([response.status, (await response.json()).code]).toEqual([status, code]);
    }
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);
  });

  it("hides another user's request: reading, waiting and cancelling are 404", async () => {
    const owner = await newUser(db, "user");
    const other = await newUser(db, "admin");
    const mine = await tokenFor(owner);
    const theirs = await tokenFor(other);
    const made = await (
      await create(post(mine.token, { kind: "question", prompt: "Lunch?" }), noParams, services())
    ).json();
    for (const response of [
      await read(get(theirs.token, `${BASE}/${made.id}`), idParams(made.id), services()),
      await read(get(theirs.token, `${BASE}/${made.id}?wait=1`), idParams(made.id), services()),
      await cancel(post(theirs.token, {}), idParams(made.id), services()),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: "not_found:request" });
    }
    const listed = await (await list(get(theirs.token, BASE), noParams, services())).json();
    expect(listed.requests).toEqual([]);
    const cancelled = await cancel(post(mine.token, {}), idParams(made.id), services());
    expect(await cancelled.json()).toMatchObject({
      status: "cancelled",
      answer: { ok: false, reason: "cancelled" },
    });
  });

  it("returns the same request for a replayed Idempotency-Key and refuses the key with another body", async () => {
    const owner = await newUser(db, "user");
    const { token } = await tokenFor(owner);
    const key = { "idempotency-key": "deploy-812" };
    const first = await create(post(token, approval, key), noParams, services());
    // The same body with its keys in another order is the same body.
    const reordered = { data: approval.data, prompt: approval.prompt, kind: approval.kind };
    // A restarted client computes its deadline again: still the same request, with its first deadline.
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const second = await create(post(token, { ...reordered, expiresAt: later }, key), noParams, services());
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const [firstBody, secondBody] = [await first.json(), await second.json()];
    expect(secondBody.id).toBe(firstBody.id);
    expect(secondBody).not.toHaveProperty("expiresAt");
    const changed = await create(
      post(token, { ...approval, prompt: "Ship 813?" }, key),
      noParams,
      services(),
    );
    expect([changed.status, (await changed.json()).code]).toEqual([422, "invalid:idempotency_key"]);
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(1);
  });

  it("refuses bad bodies with a 400 naming the field, and stores nothing", async () => {
    const owner = await newUser(db, "user");
    const { token } = await tokenFor(owner);
    const cases: [unknown, string, Record<string, string>?][] = [
      ["{not json", "/"],
      [{ prompt: "No kind" }, "/kind"],
      [{ kind: "approval", prompt: "" }, "/prompt"],
      [{ kind: "approval", prompt: "Link?", url: "javascript:alert(1)" }, "/url"],
      [{ kind: "approval", prompt: "When?", expiresAt: "tomorrow" }, "/expiresAt"],
      [{ kind: "approval", prompt: "Late?", expiresAt: "2020-01-01T00:00:00Z" }, "/expiresAt"],
      [{ kind: "input", prompt: "Which?", data: { schema: { type: "nope" } } }, "/data/schema"],
      [{ kind: "approval", prompt: "Who?", audience: "everyone", expiresAt: "tomorrow" }, "/audience"],
      [{ kind: "approval", prompt: "Extra?", runId: "r1" }, "/"],
      [{ kind: "authorization", prompt: "Sign in", url: "https://example.test" }, "/kind"],
      [approval, "/headers/Idempotency-Key", { "idempotency-key": "has spaces" }],
    ];
    for (const [body, path, headers] of cases) {
      const response = await create(post(token, body, headers), noParams, services());
      const error = await response.json();
      expect([response.status, error.code]).toEqual([400, "bad_request:input"]);
      expect(error.issues.map((issue: { path: string }) => issue.path)).toContain(path);
      expect(error.message).not.toMatch(/prisma|sql|stack|at \//i);
    }
    const badWait = await read(get(token, `${BASE}/x?wait=600`), idParams("x"), services());
    expect([badWait.status, (await badWait.json()).issues[0].path]).toEqual([400, "/wait"]);
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);
    expect(await db.thread.count({ where: { userId: owner.id } })).toBe(0);
  });

  it("lists a request past its time as expired even before the expiry sweep has run", async () => {
    const owner = await newUser(db, "user");
    const { token } = await tokenFor(owner);
    const soon = new Date(Date.now() + 300).toISOString();
    const made = await (
      await create(post(token, { ...approval, expiresAt: soon }), noParams, services())
    ).json();
    expect(made.status).toBe("open");
    await new Promise((resolve) => setTimeout(resolve, 400));
    // This engine runs no timers: only the listing itself can have expired it.
    const open = await (await list(get(token, `${BASE}?status=open`), noParams, services())).json();
    expect(open.requests).toEqual([]);
    const all = await (await list(get(token, BASE), noParams, services())).json();
    expect(all.requests).toMatchObject([
      { id: made.id, status: "expired", answer: { ok: false, reason: "expired" } },
    ]);
  });

  it("answers over the rate limit with 429 and Retry-After", async () => {
    const owner = await newUser(db, "user");
    const { token } = await tokenFor(owner);
    const previous = process.env.TOOLNEXUS_API_RATE_LIMIT;
    process.env.TOOLNEXUS_API_RATE_LIMIT = "3";
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 4; i += 1) {
        const response = await list(get(token, BASE), noParams, services());
        statuses.push(response.status);
        retryAfter = response.headers.get("retry-after");
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      if (previous === undefined) delete process.env.TOOLNEXUS_API_RATE_LIMIT;
      else process.env.TOOLNEXUS_API_RATE_LIMIT = previous;
    }
  });
});
