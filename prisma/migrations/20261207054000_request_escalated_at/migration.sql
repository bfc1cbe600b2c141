-- AlterTable
ALTER TABLE "Request" ADD COLUMN "escalatedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Request_status_audience_escalatedAt_idx" ON "Request"("status", "audience", "escalatedAt");

-- CreateIndex
CREATE INDEX "Request_ownerId_status_escalatedAt_idx" ON "Request"("ownerId", "status", "escalatedAt");
