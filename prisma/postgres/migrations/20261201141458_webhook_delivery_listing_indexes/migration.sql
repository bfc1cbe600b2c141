-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_id_idx" ON "WebhookDelivery"("createdAt", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_createdAt_id_idx" ON "WebhookDelivery"("status", "createdAt", "id");

