import { describe, expect, it } from "vitest";
import { version1Of } from "@/lib/toolnexus/testing/version-1";
import type { Checkpoint, Message } from "@/lib/toolnexus/types";
import { getRunById, loadRunCheckpoint, saveRunCheckpoint } from "./runs";
import { createDb } from "./sql/client";
import { migrateDatabase } from "./sql/migrate-database";
import { createTempDatabase } from "./sql/temp-database";
import { testCheckpointOf, transcriptTextOf, verifyLoaded } from "./testing/checkpoints";
import { createHeldRun } from "./testing/seed-people";

// PostgreSQL's Message.content went from jsonb to json (ADR 0052). Runs parked before keep
// their rows in jsonb's spelling, which is not the canonical text their digest covers: they must
// still resume when unchanged, and be refused when changed.

const migration = "20261204210303_message_content_as_json_text";

describe("the message text migration on postgres", () => {
  it("leaves a run parked before it resumable, and a changed row refused", async () => {
    const temp = await createTempDatabase({ provider: "postgres" });
    const db = createDb({ url: temp.url });
    try {
      await migrateDatabase({ url: temp.url, before: migration });
      // Today's code writes the run's columns of today; those that later migrations add exist
      // only while it writes the run as it was parked, and are dropped before migrating on.
      const later = [
        `"Run" ADD COLUMN "answeredCallsStarted" BOOLEAN NOT NULL DEFAULT false`,
        `"Run" ADD COLUMN "clientMessageId" TEXT`,
        `"Thread" ADD COLUMN "contextKey" TEXT`,
        `"Run" ADD COLUMN "stopDueAt" TIMESTAMP(3)`,
        `"Run" ADD COLUMN "stopActorId" TEXT`,
      ];
      for (const change of later) await db.$executeRawUnsafe(`ALTER TABLE ${change}`);
      const { threadId, runId } = await createHeldRun(db, "me");
      const messages: Message[] = [
        { role: "user", content: "hello" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "deploy", args: { target: "prod", steps: [1, 2] } }],
        },
      ];
      const checkpoint = testCheckpointOf(runId, messages);
      await saveRunCheckpoint({
        db,
        runId,
        threadId,
        leaseOwner: "me",
        leaseExpiresAt: new Date(Date.now() + 60_000),
        // As the release of the time made it: version 1.
        checkpoint: version1Of(checkpoint) as unknown as Checkpoint,
        withMessages: true,
      });
      for (const change of later)
        await db.$executeRawUnsafe(`ALTER TABLE ${change.replace(/ADD COLUMN (".*?").*/, "DROP COLUMN $1")}`);
      const { applied } = await migrateDatabase({ url: temp.url });
      // This one first, then whatever came after it.
      expect(applied[0]).toBe(migration);

      const stored = (await getRunById({ db, runId }))!.checkpoint!;
      const loaded = await loadRunCheckpoint({ db, threadId, stored });
      // jsonb's spelling, kept by the conversion: spaces, and keys not in canonical order.
      expect(await transcriptTextOf(loaded)).toContain('{"role": "user", "content": "hello"}');
      expect(await verifyLoaded(loaded)).toEqual(checkpoint);

      await db.$executeRawUnsafe(
        `UPDATE "Message" SET "content" = '{"role": "user", "content": "transfer everything"}'::json WHERE "threadId" = $1 AND "seq" = 1`,
        threadId,
      );
      const changed = await loadRunCheckpoint({ db, threadId, stored });
      await expect(verifyLoaded(changed)).rejects.toThrow(
        expect.objectContaining({ code: "checkpoint:tampered" }),
      );
    } finally {
      await db.$disconnect();
      await temp.drop();
    }
  });
});
