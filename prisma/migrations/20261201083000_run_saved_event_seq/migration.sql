-- AlterTable
ALTER TABLE "Run" ADD COLUMN "savedEventSeq" INTEGER NOT NULL DEFAULT 0;

-- Backfill: runs stored before this column count everything logged so far as accounted for.
UPDATE "Run" SET "savedEventSeq" = COALESCE((SELECT "lastEventSeq" FROM "Thread" WHERE "Thread"."id" = "Run"."threadId"), 0);
