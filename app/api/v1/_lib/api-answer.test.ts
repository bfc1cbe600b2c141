import { describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import type { SessionUser } from "@/lib/auth/session-user";
import { type ApiTokenScope, createApiToken } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Engine } from "@/lib/engine/engine-types";
import { makeGroup } from "@/lib/engine/testing/group-fixture";
import { answerRequestCall } from "./answer-call";
import { answerRequestRoute, createRequestRoute, readRequestRoute } from "./api-routes";
import { serveApiRoute } from "./define-api-route";
import { buildOpenApiDocument } from "./openapi-document";
import { createRequestCall, readRequestCall } from "./request-calls";
import { documentContract } from "./testing/document-contract";

// Groups and votes through the API (ADR 0076, 0077): every reply is one the document describes.

const contract = documentContract(buildOpenApiDocument());
const BASE = "http://app.test/api/v1/requests";
const create = serveApiRoute(createRequestRoute, createRequestCall);
const read = serveApiRoute(readRequestRoute, readRequestCall);
const answer = serveApiRoute(answerRequestRoute, answerRequestCall);
const idParams = (id: string) => ({ params: Promise.resolve({ id }) });

const refund = {
  kind: "approval",
  prompt: "Refund order 1234 for $2,500?",
  data: {
    arguments: { order: "1234", amount: 2500 },
    schema: {
      type: "object",
      properties: { arguments: { type: "object" }, note: { type: "string" } },
      required: ["arguments"],
    },
  },
};
const asShown = { ok: true, data: { arguments: refund.data.arguments } };

describe.each<TestProvider>(["sqlite", "postgres"])("votes through the API on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  withTestEngine((started) => {
    ({ db, engine } = started);
  }, provider);
  const services = () => ({ db, engine });

  async function tokenFor(user: SessionUser, scopes: ApiTokenScope[]) {
    const minted = mintApiToken();
    const created = await createApiToken({
      db,
      userId: user.id,
      name: "t",
      scopes,
      expiresAt: null,
      limit: 20,
      ...minted,
    });
    if (created.status !== "created") throw new Error("token limit");
    return minted.token;
  }
  const send = (token: string, url: string, body: unknown) =>
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  async function documented(operationId: string, response: Response) {
    const body = await response.json();
    expect(contract.response(operationId, response.status, body)).toMatchObject({
      documented: true,
      valid: true,
    });
    return body;
  }
  const vote = async (token: string, id: string, body: unknown) => {
    const response = await answer(send(token, `${BASE}/${id}/answer`, body), idParams(id), services());
    return { status: response.status, body: await documented("answerRequest", response) };
  };

  async function setUp() {
    const asker = await newUser(db, "user");
    const [rita, sam, tom] = [
      await newUser(db, "user"),
      await newUser(db, "user"),
      await newUser(db, "user"),
    ];
    const stranger = await newUser(db, "reviewer");
    const slug = await makeGroup(db, [asker, rita, sam, tom]);
    const all: ApiTokenScope[] = ["requests:write", "requests:read", "requests:answer"];
    const tokens = {
      asker: await tokenFor(asker, all),
      rita: await tokenFor(rita, all),
      sam: await tokenFor(sam, ["requests:answer"]),
      tom: await tokenFor(tom, ["requests:answer"]),
      samReadOnly: await tokenFor(sam, ["requests:read"]),
      stranger: await tokenFor(stranger, all),
    };
    return { asker, slug, tokens };
  }

  it("creates a group's approval, refusing unknown groups, too many required and malformed audiences", async () => {
    const { slug, tokens } = await setUp();
    const made = async (body: unknown) => {
      const response = await create(send(tokens.asker, BASE, body), idParams(""), services());
      return { status: response.status, body: await documented("createRequest", response) };
    };
    const paths = (reply: { body: { issues: { path: string }[] } }) => reply.body.issues.map((i) => i.path);

    const ok = await made({ ...refund, audience: { group: slug, required: 2 } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ audience: { group: slug, required: 2 }, required: 2, votes: [] });

    const unknown = await made({ ...refund, audience: { group: "no-such-group", required: 1 } });
    expect([unknown.status, paths(unknown)]).toEqual([422, ["/audience/group"]]);
    // Four members, the asker among them: three may approve.
    const tooMany = await made({ ...refund, audience: { group: slug, required: 4 } });
    expect([tooMany.status, paths(tooMany)]).toEqual([422, ["/audience/required"]]);
    const notApproval = await made({
      kind: "question",
      prompt: "Tea?",
      audience: { group: slug, required: 1 },
    });
    expect([notApproval.status, paths(notApproval)]).toEqual([422, ["/audience"]]);
    for (const audience of [
      { group: slug, required: 0 },
      { group: slug, required: 11 },
      { group: slug, required: 1.5 },
      { group: "Finance", required: 1 },
      { group: slug },
      { group: slug, required: 1, extra: true },
      "group",
    ]) {
      const malformed = await made({ ...refund, audience });
      expect([malformed.status, malformed.body.code, paths(malformed)[0]?.startsWith("/audience")]).toEqual([
        422,
        "invalid:audience",
        true,
      ]);
    }
  });

  it("answers by token under the inbox's rules: every refusal, then the M-th vote settles it", async () => {
    const { slug, tokens } = await setUp();
    const created = await create(
      send(tokens.asker, BASE, { ...refund, audience: { group: slug, required: 2 } }),
      idParams(""),
      services(),
    );
    const { id } = (await created.json()) as { id: string };

    expect((await vote(tokens.samReadOnly, id, asShown)).status).toBe(403);
    expect(await vote(tokens.asker, id, asShown)).toMatchObject({
      status: 403,
      body: { code: "forbidden:four_eyes" },
    });
    expect(await vote(tokens.stranger, id, asShown)).toMatchObject({
      status: 404,
      body: { code: "not_found:request" },
    });
    expect(await vote(tokens.rita, id, { ok: true, data: { note: 7 } })).toMatchObject({
      status: 422,
      body: { code: "invalid:answer" },
    });
    expect((await vote(tokens.rita, id, { ok: true, reason: "maybe" })).status).toBe(400);
    expect(await db.requestVote.count({ where: { requestRowId: id } })).toBe(0);

    const first = await vote(tokens.rita, id, { ...asShown, data: { ...asShown.data, note: "checked" } });
    expect(first).toMatchObject({
      status: 200,
      body: { status: "open", required: 2, votes: [{ ok: true, note: "checked", counts: "counted" }] },
    });
    const again = await vote(tokens.rita, id, asShown);
    expect(again).toMatchObject({
      status: 409,
      body: { code: "conflict:vote", request: { status: "open" } },
    });

    const settled = await vote(tokens.sam, id, asShown);
    expect(settled.status).toBe(200);
    expect(settled.body.status).toBe("answered");
    expect(settled.body.answer.data.approvers).toHaveLength(2);
    const late = await vote(tokens.tom, id, { ok: false, data: { reason: "too much" } });
    expect(late).toMatchObject({
      status: 409,
      body: { code: "conflict:vote_late", request: { status: "answered" } },
    });

    const response = await read(
      new Request(`${BASE}/${id}`, { headers: { authorization: `Bearer ${tokens.asker}` } }),
      idParams(id),
      services(),
    );
    const stands = await documented("readRequest", response);
    expect(stands.votes.map((v: { ok: boolean; counts: string }) => [v.ok, v.counts])).toEqual([
      [true, "counted"],
      [true, "counted"],
      [false, "late"],
    ]);
  });
});
