import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { readRunState } from "@/lib/engine/testing/engine-fixture";
import { useEngineSuite } from "@/lib/engine/testing/engine-suite";
import { startRunOnFreshThread } from "@/lib/engine/testing/start-run-on-fresh-thread";
import { registerEndpoint, testKeys } from "./testing/announce";
import { startWebhookReceiver } from "./testing/webhook-receiver";
import { openWebhookSecret } from "./webhook-secret";
import { createWebhookWorker } from "./webhook-worker";

// The outboxes through the engine's own paths: a run parks two requests, one is answered, the
// other expires, the run finishes; each step's transaction wrote its webhook message (and the park
// its mail notices), and the worker delivers them all.

describe.each<TestProvider>(["sqlite", "postgres"])("the outboxes of a real run on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("announce a park, an answer, an expiry and the run's end, each once", { timeout: 60_000 }, async () => {
    const receiver = await startWebhookReceiver();
    try {
      const db = suite.database.db;
      await suite.freshThread();
      await registerEndpoint(db, receiver.url, suite.people.admin.id);
      const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair please" });
      const [approval, input] = (await readRunState(db, runId)).requests;
      expect(await db.mailNotice.count({ where: { requestRowId: { in: [approval!.id, input!.id] } } })).toBe(
        2,
      );
      await engine.answerRequest({
        requestId: input!.id,
        answer: { ok: true, data: { name: "Bo" } },
        actor: suite.people.owner,
      });
      await engine.idle();
      await db.request.update({
        where: { id: approval!.id },
        data: { expiresAt: new Date(Date.now() - 1_000) },
      });
      expect(await engine.expireDueRequests()).toBe(1);
      await engine.idle();
      await engine.stop();
      const finished = (await readRunState(db, runId)).run.status;
      expect(["done", "incomplete", "failed"]).toContain(finished);

      const worker = createWebhookWorker({
        db,
        instanceId: "outbox-engine",
        allowPrivate: true,
        openSecret: (id, sealed) => openWebhookSecret(id, sealed, testKeys),
      });
      while ((await worker.tick()) > 0) {}
      const bodies = receiver.received.map(
        (hit) => JSON.parse(hit.body) as { type: string; data: { id?: string } },
      );
      const of = (type: string) => bodies.filter((body) => body.type === type);
      expect(
        of("request.created")
          .map((body) => body.data.id)
          .sort(),
      ).toEqual([approval!.id, input!.id].sort());
      expect(of("request.answered").map((body) => body.data.id)).toEqual([input!.id]);
      expect(of("request.expired").map((body) => body.data.id)).toEqual([approval!.id]);
      expect(of("run.finished")).toHaveLength(1);
      expect(of("run.finished")[0]).toMatchObject({ data: { runId, status: finished } });
      expect(new Set(receiver.received.map((hit) => hit.headers["webhook-id"])).size).toBe(bodies.length);
    } finally {
      await receiver.close();
    }
  });
});
