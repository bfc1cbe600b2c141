-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "pushConfigId" TEXT,
ALTER COLUMN "endpointId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "A2aPushConfig" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "configId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "tokenEnc" TEXT NOT NULL,
    "pushedState" TEXT,
    "live" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "A2aPushConfig_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "A2aPushConfig_live_id_idx" ON "A2aPushConfig"("live", "id");

-- CreateIndex
CREATE UNIQUE INDEX "A2aPushConfig_runId_configId_key" ON "A2aPushConfig"("runId", "configId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_pushConfigId_idx" ON "WebhookDelivery"("pushConfigId");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_pushConfigId_fkey" FOREIGN KEY ("pushConfigId") REFERENCES "A2aPushConfig"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "A2aPushConfig" ADD CONSTRAINT "A2aPushConfig_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
