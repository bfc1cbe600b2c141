import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Engine } from "@/lib/engine/engine-types";
import { proxy } from "@/proxy";
import { createRequestRoute, listRequestsRoute } from "./api-routes";
import { serveApiRoute } from "./define-api-route";
import { buildOpenApiDocument } from "./openapi-document";
import { createRequestCall, listRequestsCall } from "./request-calls";
import { documentContract } from "./testing/document-contract";
import { ownerWithToken as ownerWithTokenIn } from "./testing/owner-with-token";

// The refusals the document lists besides 400 answer with its Error schema, and the
// Idempotency-Key's sameness is the stored meaning, not the letters of the body.

const contract = documentContract(buildOpenApiDocument());
const BASE = "http://app.test/api/v1/requests";
const noParams = { params: Promise.resolve({}) };
const create = serveApiRoute(createRequestRoute, createRequestCall);
const list = serveApiRoute(listRequestsRoute, listRequestsCall);

async function documentedBody(operationId: string, response: Response, status: number) {
  const body = await response.json();
  expect(response.status).toBe(status);
  expect(contract.response(operationId, status, body)).toEqual({ documented: true, valid: true });
  expect(body.status).toBe(status);
  return body as { code: string; message: string };
}

describe.each<TestProvider>(["sqlite", "postgres"])("refusals of the API on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  withTestEngine((started) => {
    ({ db, engine } = started);
  }, provider);
  const services = () => ({ db, engine });

  const ownerWithToken = () => ownerWithTokenIn(db, "refusals");
  const post = (token: string, body: BodyInit, headers: Record<string, string> = {}) =>
    new Request(BASE, { method: "POST", headers: { authorization: `Bearer ${token}`, ...headers }, body });
  const json = JSON.stringify({ kind: "question", prompt: "Tea?" });

  it("takes a body only as application/json, else 415 in the Error shape, storing nothing", async () => {
    const { owner, token } = await ownerWithToken();
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/jsonx",
      "multipart/form-data",
    ]) {
      const response = await create(post(token, json, { "content-type": type }), noParams, services());
      const body = await documentedBody("createRequest", response, 415);
      expect([type, body.code]).toEqual([type, "unsupported_media_type:body"]);
    }
    // No Content-Type at all.
    const bytes = await create(post(token, new TextEncoder().encode(json)), noParams, services());
    expect((await documentedBody("createRequest", bytes, 415)).message).toContain("application/json");
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);

    for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON"]) {
      const response = await create(post(token, json, { "content-type": type }), noParams, services());
      expect([type, response.status]).toEqual([type, 201]);
    }
  });

  it("answers over the rate limit with 429, Retry-After and the Error shape", async () => {
    const { token } = await ownerWithToken();
    const previous = process.env.TOOLNEXUS_API_RATE_LIMIT;
    process.env.TOOLNEXUS_API_RATE_LIMIT = "1";
    try {
      const get = () => new Request(BASE, { headers: { authorization: `Bearer ${token}` } });
      expect((await list(get(), noParams, services())).status).toBe(200);
      const limited = await list(get(), noParams, services());
      expect((await documentedBody("listRequests", limited, 429)).code).toBe("rate_limited:token");
      expect(limited.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    } finally {
      if (previous === undefined) delete process.env.TOOLNEXUS_API_RATE_LIMIT;
      else process.env.TOOLNEXUS_API_RATE_LIMIT = previous;
    }
  });

  it("answers a fault with 500 in the Error shape, saying nothing of it", async () => {
    const { token } = await ownerWithToken();
    const failing = serveApiRoute(createRequestRoute, async () => {
      throw new Error('relation "Request" does not exist at SELECT /srv/app');
    });
    const response = await failing(
      post(token, json, { "content-type": "application/json" }),
      noParams,
      services(),
    );
    const body = await documentedBody("createRequest", response, 500);
    expect(body.code).toBe("internal:unexpected");
    expect(JSON.stringify(body)).not.toMatch(/relation|SELECT|srv/);
  });

  it("replays an Idempotency-Key whether the default audience was left out or written out", async () => {
    const { owner, token } = await ownerWithToken();
    const send = async (key: string, body: Record<string, unknown>) => {
      const headers = { "content-type": "application/json", "idempotency-key": key };
      const response = await create(post(token, JSON.stringify(body), headers), noParams, services());
      return { status: response.status, body: await response.json() };
    };
    const approval = { kind: "approval", prompt: "Ship 812?" };
    const first = await send("k-approval", approval);
    expect([first.status, first.body.audience]).toEqual([201, "reviewers"]);
    const explicit = await send("k-approval", { ...approval, audience: "reviewers" });
    expect([explicit.status, explicit.body.id]).toEqual([200, first.body.id]);
    const other = await send("k-approval", { ...approval, audience: "owner" });
    expect([other.status, other.body.code]).toEqual([422, "invalid:idempotency_key"]);
    expect(contract.response("createRequest", 422, other.body)).toEqual({ documented: true, valid: true });

    // The other way round, and for a kind whose default is the owner.
    const question = { kind: "question", prompt: "Tea?", audience: "owner" };
    const asked = await send("k-question", question);
    const { audience: _default, ...without } = question;
    const again = await send("k-question", without);
    expect([asked.status, again.status, again.body.id]).toEqual([201, 200, asked.body.id]);
    const reviewers = await send("k-question", { ...without, audience: "reviewers" });
    expect(reviewers.status).toBe(422);
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(2);
  });
});

describe("the proxy's refusal of a body over 1 MB", () => {
  it("answers 413 in the API's Error shape", async () => {
    const request = new NextRequest(BASE, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) },
    });
    const response = await proxy(request);
    const body = await documentedBody("createRequest", response, 413);
    expect(body.code).toBe("bad_request:body_too_large");
  });
});
