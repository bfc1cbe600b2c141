-- AlterTable
ALTER TABLE "Request" ADD COLUMN     "apiTokenId" TEXT,
ADD COLUMN     "createHash" TEXT,
ADD COLUMN     "idempotencyKey" TEXT,
ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'run',
ALTER COLUMN "runId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'chat';

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "revokedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_createdAt_idx" ON "ApiToken"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "ApiToken_createdAt_idx" ON "ApiToken"("createdAt");

-- CreateIndex
CREATE INDEX "Request_ownerId_origin_createdAt_id_idx" ON "Request"("ownerId", "origin", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Request_ownerId_idempotencyKey_key" ON "Request"("ownerId", "idempotencyKey");

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

