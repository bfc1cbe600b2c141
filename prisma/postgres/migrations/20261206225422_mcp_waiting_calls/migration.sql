-- CreateTable
CREATE TABLE "McpWaitingCall" (
    "id" TEXT NOT NULL,
    "tokenId" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "leaseUntil" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpWaitingCall_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "McpWaitingCall_tokenId_leaseUntil_idx" ON "McpWaitingCall"("tokenId", "leaseUntil");

-- CreateIndex
CREATE INDEX "McpWaitingCall_instanceId_idx" ON "McpWaitingCall"("instanceId");

