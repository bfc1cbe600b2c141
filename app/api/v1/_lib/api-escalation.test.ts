import { describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Engine } from "@/lib/engine/engine-types";
import { createRequestRoute, readRequestRoute } from "./api-routes";
import { serveApiRoute } from "./define-api-route";
import { createRequestCall, readRequestCall } from "./request-calls";
import { ownerWithToken } from "./testing/owner-with-token";

// `escalation` in the create body (ADR 0093): refused field by field (durations, the expiry,
// unknown groups and people, a request only its owner answers), storing nothing; a request made
// with one reads back its steps, each with `firedAt` once it fired.

const BASE = "http://app.test/api/v1/requests";
const create = serveApiRoute(createRequestRoute, createRequestCall);
const read = serveApiRoute(readRequestRoute, readRequestCall);

describe.each<TestProvider>(["sqlite", "postgres"])("escalation through the API on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  withTestEngine((started) => ({ db, engine } = started), provider);

  const post = (token: string, body: unknown) =>
    create(
      new Request(BASE, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({}) },
      { db, engine },
    );
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  it("refuses bad ladders naming the field, and stores nothing", async () => {
    const { owner, token } = await ownerWithToken(db);
    const cases: [unknown, string[]][] = [
      [[{ after: "0s", action: "remind" }], ["/escalation/0/after"]],
      [[{ after: "2h", action: "remind" }], ["/escalation/0/after"]],
      [[{ after: "5m", action: { add: "no-such-group" } }], ["/escalation/0/action/add"]],
      [[{ after: "5m", action: { add: "nobody@example.test" } }], ["/escalation/0/action/add"]],
      [
        [
          { after: "5m", action: "expire" },
          { after: "10m", action: "remind" },
        ],
        ["/escalation/1/action"],
      ],
    ];
    for (const [escalation, paths] of cases) {
      const response = await post(token, {
        kind: "approval",
        prompt: "Ship?",
        expiresAt: inAnHour(),
        escalation,
      });
      const body = (await response.json()) as { issues: { path: string }[] };
      expect([escalation, response.status, body.issues.map((issue) => issue.path)]).toEqual([
        escalation,
        400,
        paths,
      ]);
    }
    const owners = await post(token, {
      kind: "question",
      prompt: "Lunch?",
      escalation: [{ after: "5m", action: "remind" }],
    });
    expect(owners.status).toBe(400);
    expect(((await owners.json()) as { issues: { path: string }[] }).issues[0]!.path).toBe("/escalation");
    expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);
    expect(await db.requestEscalationStep.count()).toBe(0);
  });

  it("keeps the ladder it was made with and reads back each step with firedAt", async () => {
    const { token } = await ownerWithToken(db);
    const lead = await newUser(db, "user");
    await db.approverGroup.create({
      data: { slug: "api-leads", name: "Leads", members: { create: [{ userId: lead.id }] } },
    });
    const escalation = [
      { after: "10m", action: "remind" },
      { after: "30m", action: { add: "api-leads", required: 1 } },
    ];
    const made = await post(token, { kind: "approval", prompt: "Ship?", expiresAt: inAnHour(), escalation });
    expect(made.status).toBe(201);
    const created = (await made.json()) as { id: string; escalation: { after: string; firedAt: null }[] };
    expect(created.escalation).toMatchObject([
      { after: "10m", action: "remind", firedAt: null, lateMs: null },
      { after: "30m", action: { add: "api-leads", required: 1 }, firedAt: null },
    ]);
    await db.requestEscalationStep.updateMany({
      where: { requestRowId: created.id, position: 0 },
      data: { dueAt: new Date(Date.now() - 1_000) },
    });
    expect(await engine.escalateDueRequests()).toBe(1);
    const response = await read(
      new Request(`${BASE}/${created.id}`, { headers: { authorization: `Bearer ${token}` } }),
      { params: Promise.resolve({ id: created.id }) },
      { db, engine },
    );
    const body = (await response.json()) as {
      escalation: { firedAt: string | null; lateMs: number | null }[];
    };
    expect(body.escalation[0]!.firedAt).toEqual(expect.any(String));
    expect(body.escalation[0]!.lateMs).toBeLessThan(60_000);
    expect(body.escalation[1]!.firedAt).toBeNull();
  });
});
