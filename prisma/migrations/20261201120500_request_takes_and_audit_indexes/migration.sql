-- AlterTable
ALTER TABLE "Request" ADD COLUMN "takeChangedAt" DATETIME;
ALTER TABLE "Request" ADD COLUMN "takenById" TEXT;
ALTER TABLE "Request" ADD COLUMN "takenUntil" DATETIME;

-- CreateIndex
CREATE INDEX "Answer_createdAt_id_idx" ON "Answer"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Answer_actorId_createdAt_id_idx" ON "Answer"("actorId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Answer_ok_createdAt_id_idx" ON "Answer"("ok", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Answer_ok_reason_createdAt_id_idx" ON "Answer"("ok", "reason", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Request_status_audience_takeChangedAt_idx" ON "Request"("status", "audience", "takeChangedAt");

-- CreateIndex
CREATE INDEX "Request_toolName_idx" ON "Request"("toolName");
