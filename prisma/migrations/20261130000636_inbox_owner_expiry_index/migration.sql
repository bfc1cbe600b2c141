-- CreateIndex
CREATE INDEX "Request_ownerId_status_expiresAt_createdAt_id_idx" ON "Request"("ownerId", "status", "expiresAt", "createdAt", "id");
