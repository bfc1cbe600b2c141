import { describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import { createApiToken } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { MAX_BODY_BYTES } from "@/lib/http/body-limit.mjs";
import { createRequestRoute } from "./api-routes";
import { serveApiRoute } from "./define-api-route";
import { createRequestCall } from "./request-calls";

// The route's own reading of its body, with nothing in front of it (no production entry, no
// proxy): it must keep the limits by itself. The HTTP-level journeys through everything in
// front are in app/_lib/request-body-limits.test.ts.

let db: Db;
let engine: Engine;
withTestEngine((started) => {
  ({ db, engine } = started);
});
const create = serveApiRoute(createRequestRoute, createRequestCall);

async function caller() {
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
  return { owner, authorization: `Bearer ${minted.token}` };
}

/** A request whose body arrives as a stream of 64 KB pieces with no declared length. */
function chunked(authorization: string, text: string) {
  const bytes = new TextEncoder().encode(text);
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= bytes.length) return controller.close();
      const piece = bytes.subarray(pulled, pulled + 64 * 1024);
      pulled += piece.length;
      controller.enqueue(piece);
    },
  });
  const request = new Request("http://app.test/api/v1/requests", {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

const serve = (request: Request) => create(request, { params: Promise.resolve({}) }, { db, engine });

describe("the API route's body", () => {
  it("stops reading a chunked 5 MB body at the limit and answers 413 in the error shape, storing nothing", async () => {
    const { owner, authorization } = await caller();
    const big = chunked(
      authorization,
      JSON.stringify({ kind: "approval", prompt: "Big?", data: { pad: "x".repeat(5 * 1024 * 1024) } }),
    );
    const response = await serve(big.request);
    expect([response.status, await response.json()]).toEqual([
      413,
      {
        code: "bad_request:body_too_large",
        status: 413,
        message: "The request body is larger than the 1 MB limit.",
        issues: [],
      },
    ]);
    expect(big.pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * 64 * 1024);
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);
  });

  it("refuses 2,000-deep data and a repeated key with a 400 naming the path, and takes what is within", async () => {
    const { owner, authorization } = await caller();
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 2_000; i += 1) deep = { a: deep };
    const tooDeep = await serve(
      chunked(authorization, JSON.stringify({ kind: "input", prompt: "Deep?", data: deep })).request,
    );
    const refused = await tooDeep.json();
    expect([tooDeep.status, refused.code, refused.issues[0].path]).toEqual([
      400,
      "bad_request:input",
      `/data/${Array(63).fill("a").join("/")}`,
    ]);

    const twice = await serve(
      chunked(authorization, '{"kind":"approval","kind":"input","prompt":"Which?"}').request,
    );
    expect([twice.status, (await twice.json()).issues]).toEqual([
      400,
      [{ path: "/kind", message: "repeats a key of the same object" }],
    ]);
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);

    const fine = await serve(
      chunked(authorization, '{"kind":"approval","prompt":"Ship?","data":{"a":{"kind":1}}}').request,
    );
    expect(fine.status).toBe(201);
  });
});
