import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parkRun } from "@/lib/db/park-run";
import { createHeldRun } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { escalationFor } from "@/lib/engine/answer-policy";
import { createCheckpoint } from "@/lib/toolnexus/checkpoint";
import type { Request } from "@/lib/toolnexus/types";
import { approvalRequest } from "./approval-request";

// A rule's ladder goes with the approval the gate asks (ADR 0093) and is copied onto the request
// when the run parks on it: one row per step, due from when it was asked, none past its expiry.

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`a ladder parked with its request, on ${provider}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(provider);
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("stores each step of the gate's approval as a row, due from when it was asked", async () => {
      const escalation = [
        { after: "15m", action: "remind" as const },
        { after: "1h", action: { add: "sre-leads", required: 2 } },
        { after: "3h", action: "expire" as const },
      ];
      const expiresAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
      const asked = approvalRequest({
        tool: {
          name: "deploy",
          source: "native",
          description: "",
          inputSchema: { type: "object" },
          execute: async () => ({ output: "", isError: false }),
        },
        args: {},
        ctx: undefined,
        asking: { policy: "reviewer", escalation },
        profile: undefined,
        offerAllowInThread: false,
        expiresAt,
      });
      const request = asked.metadata!.pending as Request;
      expect(escalationFor(request)).toEqual(escalation);

      const leaseOwner = "park-test";
      const { runId, threadId } = await createHeldRun(database.db, leaseOwner);
      const call = { id: "c1", name: "deploy", args: {} };
      const checkpoint = createCheckpoint({
        runId,
        model: "m",
        messages: [
          { role: "user", content: "deploy" },
          { role: "assistant", content: "", toolCalls: [call] },
        ],
        slots: [{ call, state: { status: "suspended", request } }],
        toolCalls: [],
        turns: 1,
        usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      });
      const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      const before = Date.now();
      await parkRun({
        db: database.db,
        runId,
        threadId,
        ownerId: run.userId,
        leaseOwner,
        checkpoint,
        suspensions: [
          { request, toolCallId: call.id, toolName: call.name, args: {}, audience: "reviewers", escalation },
        ],
      });
      const row = await database.db.request.findFirstOrThrow({ where: { runId } });
      const steps = await database.db.requestEscalationStep.findMany({
        where: { requestRowId: row.id },
        orderBy: { position: "asc" },
      });
      // The expiry comes two hours in, so the three-hour step is left out.
      expect(steps.map((step) => [step.position, step.kind, step.after, step.firedAt])).toEqual([
        [0, "remind", "15m", null],
        [1, "add", "1h", null],
      ]);
      expect(steps[1]!.action).toEqual({ add: "sre-leads", required: 2 });
      const dueIn = steps[0]!.dueAt.getTime() - before;
      expect(dueIn).toBeGreaterThan(15 * 60_000 - 5_000);
      expect(dueIn).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    });
  });
}
