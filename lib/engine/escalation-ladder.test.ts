import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type People, seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { ESCALATION_LATE_AFTER_MS, type EscalationStep } from "@/lib/domain/escalation";
import type { Engine } from "./engine-types";
import { makeTestEngine } from "./testing/engine-fixture";
import { type RaceInstance, startRaceInstance } from "./testing/race-instances";
import { memoryLog } from "./testing/scripted-agent";
import { killEngineChildren } from "./testing/spawn-child";

// Escalation ladders (ADR 0093) fired by the expiry sweep: two app instances, each a process
// with its own engine and database client, sweep at the same moment and every step fires exactly
// once; a step due while no instance ran fires once when a fresh one starts, and says how late.

const HOUR = 3_600_000;

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`escalation ladders on ${provider}`, () => {
    let database: TestDatabase;
    let people: People;
    let dir: string;
    let asker: Engine;
    let instances: RaceInstance[];
    let lead: { id: string; email: string };

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      people = await seedPeople(database.db);
      dir = mkdtempSync(path.join(tmpdir(), "toolnexus-ladder-"));
      asker = makeTestEngine({ db: database.db, log: memoryLog() });
      instances = await Promise.all(
        ["a", "b"].map((name) => startRaceInstance({ url: database.url, dir, name, blockMs: 0 })),
      );
      const user = await database.db.user.create({ data: { role: "user", email: "lead@example.test" } });
      lead = { id: user.id, email: "lead@example.test" };
      await database.db.approverGroup.create({
        data: { slug: "sre-leads", name: "SRE leads", members: { create: [{ userId: user.id }] } },
      });
      await database.db.webhookEndpoint.create({
        data: {
          url: "https://hooks.example.test/in",
          events: ["request.reminded", "request.escalated", "request.answered"],
          secretEnc: "unused",
        },
      });
    });
    afterAll(async () => {
      await Promise.all((instances ?? []).map((instance) => instance.exit()));
      killEngineChildren();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    const ask = async (escalation: EscalationStep[]) =>
      (
        await asker.createRequest({
          owner: people.owner,
          apiTokenId: "token",
          request: {
            kind: "approval",
            prompt: "Ship it?",
            expiresAt: new Date(Date.now() + HOUR).toISOString(),
          },
          escalation,
          idempotencyKey: null,
          createHash: "h",
        })
      ).request;

    /** Makes steps due `ago` milliseconds ago, as if that much time had passed. */
    const makeDue = (requestRowId: string, positions: number[], ago = 1_000) =>
      database.db.requestEscalationStep.updateMany({
        where: { requestRowId, position: { in: positions } },
        data: { dueAt: new Date(Date.now() - ago) },
      });

    /** Both instances sweep at one agreed moment, twice each; how many steps they fired in all. */
    const race = async () => {
      const at = Date.now() + 300;
      const outcomes = await Promise.all(
        [...instances, ...instances].map((instance) => instance.call({ op: "escalate", at })),
      );
      return outcomes.reduce((sum, outcome) => {
        if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
        return sum + (outcome.value as number);
      }, 0);
    };

    it("fires each step once while two instances sweep at once, and declines through the answer path", {
      timeout: 60_000,
    }, async () => {
      const request = await ask([
        { after: "10m", action: "remind" },
        { after: "20m", action: { add: "sre-leads", required: 1 } },
        { after: "30m", action: { decline: "Nobody looked at it in time." } },
      ]);
      const steps = () =>
        database.db.requestEscalationStep.findMany({
          where: { requestRowId: request.id },
          orderBy: { position: "asc" },
        });
      expect((await steps()).map((step) => [step.kind, step.firedAt])).toEqual([
        ["remind", null],
        ["add", null],
        ["decline", null],
      ]);
      expect(await race()).toBe(0);

      await makeDue(request.id, [0, 1]);
      expect(await race()).toBe(2);
      expect(await race()).toBe(0);
      const fired = await steps();
      expect(fired.slice(0, 2).every((step) => step.firedAt !== null && step.lateMs! < 60_000)).toBe(true);
      expect(fired[2]!.firedAt).toBeNull();
      const notices = await database.db.mailNotice.findMany({
        where: { requestRowId: request.id, stepId: { not: "" } },
      });
      expect(notices.map((notice) => notice.stepId).sort()).toEqual([fired[0]!.id, fired[1]!.id].sort());
      const messages = await database.db.webhookMessage.findMany({
        where: {
          type: { in: ["request.reminded", "request.escalated"] },
          eventKey: { contains: fired[0]!.id },
        },
      });
      expect(messages.map((message) => message.type)).toEqual(["request.reminded"]);
      expect(JSON.parse(messages[0]!.body)).toMatchObject({
        type: "request.reminded",
        data: { id: request.id, step: { position: 0, after: "10m", action: "remind" } },
      });
      expect(
        await database.db.webhookMessage.count({ where: { eventKey: `request.escalated:${fired[1]!.id}` } }),
      ).toBe(1);
      expect(
        await database.db.auditLog.count({
          where: { action: "request.escalation_fired", targetId: request.id },
        }),
      ).toBe(2);
      // The escalation is mailed to whom it added, the reminder to everyone addressed.
      const { listMailRecipientsByRequest } = await import("@/lib/db/mail-recipients");
      const escalated = await listMailRecipientsByRequest({
        db: database.db,
        requestRowId: request.id,
        stepId: fired[1]!.id,
      });
      expect(escalated.recipients.map((r) => r.userId)).toEqual([lead.id]);
      const reminded = await listMailRecipientsByRequest({
        db: database.db,
        requestRowId: request.id,
        stepId: fired[0]!.id,
      });
      expect(reminded.recipients.map((r) => r.userId)).toEqual(
        expect.arrayContaining([people.reviewer.id, people.admin.id, lead.id]),
      );

      await makeDue(request.id, [2]);
      expect(await race()).toBe(1);
      const answered = await database.db.request.findUniqueOrThrow({
        where: { id: request.id },
        include: { answer: true },
      });
      expect(answered.status).toBe("answered");
      expect(answered.answer).toMatchObject({
        actorId: null,
        ok: false,
        reason: "declined",
        data: { reason: "Nobody looked at it in time." },
      });
      expect(
        await database.db.auditLog.count({ where: { action: "request.answered", targetId: request.id } }),
      ).toBe(1);
      expect(
        await database.db.webhookMessage.count({ where: { eventKey: `request.answered:${request.id}` } }),
      ).toBe(1);
    });

    it("fires a step due while no instance ran once, when one starts, and says how late", {
      timeout: 60_000,
    }, async () => {
      const request = await ask([
        { after: "5m", action: "remind" },
        { after: "50m", action: "expire" },
      ]);
      await makeDue(request.id, [0], 10 * 60_000);
      // A fresh instance, a process of its own: its start sweeps what came due meanwhile.
      const c = await startRaceInstance({ url: database.url, dir, name: "c", blockMs: 0 });
      try {
        expect(await c.call({ op: "boot" })).toEqual({ ok: true, value: null });
        const step = await database.db.requestEscalationStep.findFirstOrThrow({
          where: { requestRowId: request.id, position: 0 },
        });
        expect(step.firedAt).not.toBeNull();
        expect(step.lateMs).toBeGreaterThanOrEqual(10 * 60_000);
        expect(step.lateMs).toBeGreaterThan(ESCALATION_LATE_AFTER_MS);
        const audit = await database.db.auditLog.findFirstOrThrow({
          where: { action: "request.escalation_fired", targetId: request.id },
        });
        expect(audit.detail).toMatchObject({ position: 0, did: "reminded", lateMs: step.lateMs });
        expect(await race()).toBe(0);

        await makeDue(request.id, [1]);
        expect(await race()).toBe(1);
        expect((await database.db.request.findUniqueOrThrow({ where: { id: request.id } })).status).toBe(
          "expired",
        );
        expect(await database.db.answer.count({ where: { requestRowId: request.id } })).toBe(1);
      } finally {
        await c.exit();
      }
    });

    it("lets a group an escalation added settle a group's request by its own quorum", {
      timeout: 60_000,
    }, async () => {
      const member = await database.db.user.create({ data: { role: "user", email: "fin@example.test" } });
      const other = await database.db.user.create({ data: { role: "user", email: "fin2@example.test" } });
      await database.db.approverGroup.create({
        data: {
          slug: "fin-two",
          name: "Finance",
          members: { create: [{ userId: member.id }, { userId: other.id }] },
        },
      });
      const { request } = await asker.createRequest({
        owner: people.owner,
        apiTokenId: "token",
        request: {
          kind: "approval",
          prompt: "Refund?",
          expiresAt: new Date(Date.now() + HOUR).toISOString(),
        },
        audience: { group: "fin-two", required: 2 },
        escalation: [{ after: "10m", action: { add: "sre-leads", required: 1 } }],
        idempotencyKey: null,
        createHash: "g",
      });
      const leadActor = { id: lead.id, role: "user" as const };
      const vote = () =>
        asker.answerRequest({ requestId: request.id, actor: leadActor, answer: { ok: true } });
      await expect(vote()).rejects.toMatchObject({ code: "not_found:request" });
      await makeDue(request.id, [0]);
      expect(await race()).toBe(1);
      const settled = await vote();
      expect(settled.request).toMatchObject({ status: "answered", answer: { ok: true, actorId: lead.id } });
      expect(settled.request.answer?.data).toMatchObject({ approvers: [lead.email] });
    });

    it("drops the steps of a request answered before they came due, and fires none", {
      timeout: 60_000,
    }, async () => {
      const request = await ask([
        { after: "1m", action: "remind" },
        { after: "2m", action: { decline: "Too late." } },
      ]);
      await asker.answerRequest({ requestId: request.id, actor: people.reviewer, answer: { ok: true } });
      await makeDue(request.id, [0, 1]);
      expect(await race()).toBe(0);
      expect(await database.db.requestEscalationStep.count({ where: { requestRowId: request.id } })).toBe(0);
      expect(
        await database.db.answer.findUniqueOrThrow({ where: { requestRowId: request.id } }),
      ).toMatchObject({
        ok: true,
        actorId: people.reviewer.id,
      });
      expect(
        await database.db.auditLog.count({
          where: { action: "request.escalation_fired", targetId: request.id },
        }),
      ).toBe(0);
    });
  });
}
