-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "lastEventSeq" INTEGER NOT NULL DEFAULT 0;

-- Backfill: every thread's counter starts at its highest stored seq.
UPDATE "Thread" SET "lastEventSeq" = COALESCE((SELECT MAX("seq") FROM "Event" WHERE "Event"."threadId" = "Thread"."id"), 0);
