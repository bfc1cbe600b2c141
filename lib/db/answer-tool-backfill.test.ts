import { describe, expect, it } from "vitest";
import { createDb } from "./sql/client";
import { migrateDatabase } from "./sql/migrate-database";
import { createTempDatabase } from "./sql/temp-database";

// Answers given before answers carried their tool take it from their request when the database
// is migrated, so the audit's tool filter finds the old ones too.
const MIGRATION = "20261201142005_answer_tool_name";

describe.each(["sqlite", "postgres"] as const)("the answer tool migration on %s", (provider) => {
  it("copies each existing answer's tool from its request and keeps the rest of the row", async () => {
    const temp = await createTempDatabase({ provider });
    let db = createDb({ url: temp.url });
    try {
      await migrateDatabase({ url: temp.url, before: MIGRATION });
      // Every row is written by hand: the client knows the columns of today, which later
      // migrations added and this database does not have yet.
      const user = { id: `user-backfill-${provider}` };
      const thread = { id: `thread-backfill-${provider}` };
      await db.$executeRaw`INSERT INTO "User" ("id", "email", "updatedAt") VALUES (${user.id}, ${`backfill-${provider}@example.test`}, ${new Date()})`;
      await db.$executeRaw`INSERT INTO "Thread" ("id", "userId", "title", "updatedAt") VALUES (${thread.id}, ${user.id}, 'old', ${new Date()})`;
      const run = { id: `run-backfill-${provider}` };
      await db.$executeRaw`INSERT INTO "Run" ("id", "threadId", "userId", "model", "updatedAt") VALUES (${run.id}, ${thread.id}, ${user.id}, 'demo', ${new Date()})`;
      for (const [n, toolName] of [
        [1, "deploy"],
        [2, "refund"],
      ] as const) {
        const payload = JSON.stringify({ id: `pnd-${n}`, kind: "approval", prompt: `Old ${n}?` });
        if (provider === "postgres") {
          await db.$executeRaw`INSERT INTO "Request" ("id", "requestId", "runId", "threadId", "ownerId", "toolCallId", "toolName", "args", "kind", "prompt", "payload", "audience", "status", "updatedAt") VALUES (${`req-${n}`}, ${`pnd-${n}`}, ${run.id}, ${thread.id}, ${user.id}, ${`call-${n}`}, ${toolName}, '{}'::jsonb, 'approval', ${`Old ${n}?`}, ${payload}::jsonb, 'reviewers', 'answered', ${new Date()})`;
        } else {
          await db.$executeRaw`INSERT INTO "Request" ("id", "requestId", "runId", "threadId", "ownerId", "toolCallId", "toolName", "args", "kind", "prompt", "payload", "audience", "status", "updatedAt") VALUES (${`req-${n}`}, ${`pnd-${n}`}, ${run.id}, ${thread.id}, ${user.id}, ${`call-${n}`}, ${toolName}, '{}', 'approval', ${`Old ${n}?`}, ${payload}, 'reviewers', 'answered', ${new Date()})`;
        }
      }
      // The Answer table is the one that changes: rows as the old schema wrote them.
      await db.$executeRaw`INSERT INTO "Answer" ("id", "requestRowId", "actorId", "ok", "reason") VALUES ('ans-1', 'req-1', ${user.id}, ${true}, NULL)`;
      await db.$executeRaw`INSERT INTO "Answer" ("id", "requestRowId", "actorId", "ok", "reason") VALUES ('ans-2', 'req-2', NULL, ${false}, 'expired')`;

      // SQLite's migration rebuilds the table, which waits for every other connection to let go.
      await db.$disconnect();
      expect((await migrateDatabase({ url: temp.url })).applied).toContain(MIGRATION);
      db = createDb({ url: temp.url });
      const answers = await db.answer.findMany({
        orderBy: { id: "asc" },
        select: { id: true, toolName: true, ok: true, reason: true, actorId: true, requestRowId: true },
      });
      expect(answers).toEqual([
        { id: "ans-1", toolName: "deploy", ok: true, reason: null, actorId: user.id, requestRowId: "req-1" },
        {
          id: "ans-2",
          toolName: "refund",
          ok: false,
          reason: "expired",
          actorId: null,
          requestRowId: "req-2",
        },
      ]);
    } finally {
      await db.$disconnect();
      await temp.drop();
    }
  });
});
