-- CreateTable
CREATE TABLE "McpWaitingCall" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenId" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "leaseUntil" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "McpWaitingCall_tokenId_leaseUntil_idx" ON "McpWaitingCall"("tokenId", "leaseUntil");

-- CreateIndex
CREATE INDEX "McpWaitingCall_instanceId_idx" ON "McpWaitingCall"("instanceId");
