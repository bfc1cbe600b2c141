-- DropIndex
DROP INDEX "Request_status_audience_kind_createdAt_idx";

-- CreateIndex
CREATE INDEX "Request_status_audience_createdAt_id_idx" ON "Request"("status", "audience", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Request_status_audience_kind_createdAt_id_idx" ON "Request"("status", "audience", "kind", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Request_status_audience_expiresAt_createdAt_id_idx" ON "Request"("status", "audience", "expiresAt", "createdAt", "id");
