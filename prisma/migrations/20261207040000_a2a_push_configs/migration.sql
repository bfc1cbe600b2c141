-- CreateTable
CREATE TABLE "A2aPushConfig" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "configId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "tokenEnc" TEXT NOT NULL,
    "pushedState" TEXT,
    "live" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "A2aPushConfig_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "messageId" TEXT NOT NULL,
    "endpointId" TEXT,
    "pushConfigId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "lastAttemptAt" DATETIME,
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "deliveredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "WebhookDelivery_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "WebhookMessage" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WebhookDelivery_pushConfigId_fkey" FOREIGN KEY ("pushConfigId") REFERENCES "A2aPushConfig" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_WebhookDelivery" ("attempts", "createdAt", "deliveredAt", "endpointId", "id", "lastAttemptAt", "lastError", "lastStatusCode", "leaseOwner", "messageId", "nextAttemptAt", "status", "updatedAt") SELECT "attempts", "createdAt", "deliveredAt", "endpointId", "id", "lastAttemptAt", "lastError", "lastStatusCode", "leaseOwner", "messageId", "nextAttemptAt", "status", "updatedAt" FROM "WebhookDelivery";
DROP TABLE "WebhookDelivery";
ALTER TABLE "new_WebhookDelivery" RENAME TO "WebhookDelivery";
CREATE INDEX "WebhookDelivery_pushConfigId_idx" ON "WebhookDelivery"("pushConfigId");
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");
CREATE INDEX "WebhookDelivery_endpointId_createdAt_idx" ON "WebhookDelivery"("endpointId", "createdAt");
CREATE INDEX "WebhookDelivery_createdAt_id_idx" ON "WebhookDelivery"("createdAt", "id");
CREATE INDEX "WebhookDelivery_status_createdAt_id_idx" ON "WebhookDelivery"("status", "createdAt", "id");
CREATE UNIQUE INDEX "WebhookDelivery_messageId_endpointId_key" ON "WebhookDelivery"("messageId", "endpointId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "A2aPushConfig_live_id_idx" ON "A2aPushConfig"("live", "id");

-- CreateIndex
CREATE UNIQUE INDEX "A2aPushConfig_runId_configId_key" ON "A2aPushConfig"("runId", "configId");
