import { describe, expect, it } from "vitest";
import { withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Engine } from "@/lib/engine/engine-types";
import { answerRequestCall } from "./answer-call";
import { answerRequestRoute, createRequestRoute, listRequestsRoute, readRequestRoute } from "./api-routes";
import { serveApiRoute } from "./define-api-route";
import { buildOpenApiDocument } from "./openapi-document";
import { createRequestCall, listRequestsCall, readRequestCall } from "./request-calls";
import {
  answerBodyCases,
  createBodyCases,
  idempotencyKeyCases,
  listQueryCases,
  waitCases,
} from "./testing/contract-cases";
import { type Contract, documentContract } from "./testing/document-contract";
import { ownerWithToken as ownerWithTokenIn } from "./testing/owner-with-token";

// The document says what the routes enforce, and the routes enforce what it says: every request
// here is judged by the OpenAPI document (as a client's validator reads it) and sent to the real
// route on a real database. Each must be allowed or refused as its case says, by both; refused
// means a 400 naming the fields the document names, with nothing stored. And every rule of the
// document is broken by at least one request here.

const contract = documentContract(buildOpenApiDocument());
const BASE = "http://app.test/api/v1/requests";
const noParams = { params: Promise.resolve({}) };
const create = serveApiRoute(createRequestRoute, createRequestCall);
const list = serveApiRoute(listRequestsRoute, listRequestsCall);
const read = serveApiRoute(readRequestRoute, readRequestCall);
const answer = serveApiRoute(answerRequestRoute, answerRequestCall);

const each = <T>(cases: { allowed: T[]; refused: T[] }): [T, boolean][] => [
  ...cases.allowed.map((value): [T, boolean] => [value, true]),
  ...cases.refused.map((value): [T, boolean] => [value, false]),
];

/** Every rule of a contract is broken by some request the document refused. */
function expectEveryRuleBroken(
  of: Contract,
  broken: Set<string>,
  skip: (place: string) => boolean = () => false,
) {
  const unbroken = of.constraints.filter((place) => !skip(place) && !broken.has(place));
  expect(unbroken, "rules of the document no request here breaks").toEqual([]);
}

async function expectDocumented(
  operationId: string,
  response: Response,
): Promise<{ issues?: { path: string }[] }> {
  const body = await response.json();
  const { documented, valid } = contract.response(operationId, response.status, body);
  expect({ status: response.status, documented, valid }).toEqual({
    status: response.status,
    documented: true,
    valid: true,
  });
  return body;
}

describe.each<TestProvider>(["sqlite", "postgres"])(
  "the API on %s against its OpenAPI document",
  (provider) => {
    let db: Db;
    let engine: Engine;
    withTestEngine((started) => {
      ({ db, engine } = started);
    }, provider);
    const services = () => ({ db, engine });

    const ownerWithToken = () => ownerWithTokenIn(db, "contract");
    const post = (token: string, body: unknown, headers: Record<string, string> = {}) =>
      new Request(BASE, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
        body: JSON.stringify(body),
      });
    const get = (token: string, url: string) =>
      new Request(url, { headers: { authorization: `Bearer ${token}` } });

    it("creates what the document allows and refuses the rest with 400 (422 for the audience alone) naming the field, storing nothing", async () => {
      const { owner, token } = await ownerWithToken();
      const of = contract.body("createRequest");
      const broken = new Set<string>();
      for (const [label, body, allowed] of createBodyCases()) {
        const verdict = of.validate(body);
        expect([label, verdict.valid]).toEqual([label, allowed]);
        for (const place of verdict.broken) broken.add(place);
        const before = await db.request.count({ where: { ownerId: owner.id } });
        const response = await create(post(token, body), noParams, services());
        const reply = await expectDocumented("createRequest", response);
        const after = await db.request.count({ where: { ownerId: owner.id } });
        if (verdict.valid) {
          expect([label, response.status, after - before]).toEqual([label, 201, 1]);
        } else {
          const audienceOnly = verdict.fields.every((field) => field === "/audience");
          expect([label, response.status, after - before]).toEqual([label, audienceOnly ? 422 : 400, 0]);
          // The route may name a field inside the one the document names (/audience/required).
          const named = reply.issues!.map((issue) => issue.path.split("/").slice(0, 2).join("/"));
          for (const field of verdict.fields) expect(named, label).toContain(field);
        }
      }
      expectEveryRuleBroken(of, broken);
    });

    it("takes the answer bodies the document allows and refuses the rest with 400 naming the field", async () => {
      const { token } = await ownerWithTokenIn(db, "answers", ["requests:answer"]);
      const of = contract.body("answerRequest");
      const broken = new Set<string>();
      for (const [body, allowed] of each(answerBodyCases)) {
        const verdict = of.validate(body);
        expect([body, verdict.valid]).toEqual([body, allowed]);
        for (const place of verdict.broken) broken.add(place);
        // An unknown id: a body the document allows gets as far as the 404.
        const response = await answer(
          new Request(`${BASE}/nope/answer`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify(body),
          }),
          { params: Promise.resolve({ id: "nope" }) },
          services(),
        );
        const reply = await expectDocumented("answerRequest", response);
        expect([body, response.status]).toEqual([body, verdict.valid ? 404 : 400]);
        if (!verdict.valid)
          for (const field of verdict.fields) expect(reply.issues!.map((i) => i.path)).toContain(field);
      }
      expectEveryRuleBroken(of, broken);
    });

    it("stores a prompt without the white space around it", async () => {
      const { token } = await ownerWithToken();
      const made = await create(
        post(token, { kind: "question", prompt: "  Lunch?\n" }),
        noParams,
        services(),
      );
      expect((await made.json()).prompt).toBe("Lunch?");
    });

    it("takes the Idempotency-Key the document allows and refuses the rest", async () => {
      const { owner, token } = await ownerWithToken();
      const of = contract.parameters("createRequest", "header");
      const broken = new Set<string>();
      for (const [key, allowed] of each(idempotencyKeyCases)) {
        const verdict = of.validate({ "Idempotency-Key": key });
        expect([key, verdict.valid]).toEqual([key, allowed]);
        for (const place of verdict.broken) broken.add(place);
        const before = await db.request.count({ where: { ownerId: owner.id } });
        const response = await create(
          post(token, { kind: "question", prompt: `Key ${key}?` }, { "idempotency-key": key }),
          noParams,
          services(),
        );
        const reply = await expectDocumented("createRequest", response);
        const stored = (await db.request.count({ where: { ownerId: owner.id } })) - before;
        expect([key, response.status, stored]).toEqual(verdict.valid ? [key, 201, 1] : [key, 400, 0]);
        if (!verdict.valid) expect(reply.issues!.map((issue) => issue.path)).toEqual(verdict.fields);
      }
      // A header's value is always text, and none is required.
      expectEveryRuleBroken(of, broken, (place) => place.endsWith("/type") || place === "#/required");
    });

    it("reads `wait` and the list's query as the document says, refusing the rest with 400", async () => {
      const { token } = await ownerWithToken();
      const made = await (
        await create(post(token, { kind: "question", prompt: "Wait?" }), noParams, services())
      ).json();
      const broken = new Set<string>();
      const readQuery = contract.parameters("readRequest", "query");
      for (const [wait, allowed] of each(waitCases)) {
        const verdict = readQuery.validate({ wait });
        expect([wait, verdict.valid]).toEqual([wait, allowed]);
        for (const place of verdict.broken) broken.add(`read ${place}`);
        // An unknown id: a wait the document allows gets as far as the 404, without waiting.
        const url = `${BASE}/nope?wait=${encodeURIComponent(wait)}`;
        const response = await read(get(token, url), { params: Promise.resolve({ id: "nope" }) }, services());
        const reply = await expectDocumented("readRequest", response);
        expect([wait, response.status]).toEqual([wait, verdict.valid ? 404 : 400]);
        if (!verdict.valid)
          expect(new Set(reply.issues!.map((issue) => issue.path))).toEqual(new Set(["/wait"]));
      }
      // The message says which form a wait takes, apart from how long it may be.
      const messageFor = async (wait: string) => {
        const url = `${BASE}/nope?wait=${encodeURIComponent(wait)}`;
        const response = await read(get(token, url), { params: Promise.resolve({ id: "nope" }) }, services());
        return ((await response.json()).issues as { message: string }[]).map((issue) => issue.message);
      };
      expect(await messageFor("1e3")).toContain("must be decimal seconds, e.g. 30 or 2.5");
      expect(await messageFor("600")).toEqual(["must be at most 60 seconds"]);
      const listQuery = contract.parameters("listRequests", "query");
      for (const [query, allowed] of each(listQueryCases)) {
        const verdict = listQuery.validate(query);
        expect([query, verdict.valid]).toEqual([query, allowed]);
        for (const place of verdict.broken) broken.add(`list ${place}`);
        const response = await list(
          get(token, `${BASE}?${new URLSearchParams(query)}`),
          noParams,
          services(),
        );
        const reply = await expectDocumented("listRequests", response);
        expect([query, response.status]).toEqual([query, verdict.valid ? 200 : 400]);
        if (!verdict.valid)
          expect(new Set(reply.issues!.map((issue) => issue.path))).toEqual(new Set(verdict.fields));
      }
      // A query value is always text, and none is required.
      const skip = (place: string) => place.endsWith("/type") || place.endsWith("#/required");
      expectEveryRuleBroken(
        { ...readQuery, constraints: readQuery.constraints.map((p) => `read ${p}`) },
        broken,
        skip,
      );
      expectEveryRuleBroken(
        { ...listQuery, constraints: listQuery.constraints.map((p) => `list ${p}`) },
        broken,
        skip,
      );
      expect(made.status).toBe("open");
    });
  },
);
