-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "openRequests" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Request_runId_status_idx" ON "Request"("runId", "status");

-- CreateIndex
CREATE INDEX "Run_status_openRequests_id_idx" ON "Run"("status", "openRequests", "id");


-- Backfill: every run starts with the number of its requests that are open now.
UPDATE "Run" SET "openRequests" = (
    SELECT COUNT(*) FROM "Request" WHERE "Request"."runId" = "Run"."id" AND "Request"."status" = 'open'
);
