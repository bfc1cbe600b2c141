-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "expiresAt" DATETIME,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    "revokedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Request" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestId" TEXT NOT NULL,
    "runId" TEXT,
    "threadId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "args" JSONB NOT NULL,
    "kind" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "url" TEXT,
    "data" JSONB,
    "expiresAt" DATETIME,
    "payload" JSONB NOT NULL,
    "audience" TEXT NOT NULL DEFAULT 'owner',
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "resolvedAt" DATETIME,
    "origin" TEXT NOT NULL DEFAULT 'run',
    "idempotencyKey" TEXT,
    "createHash" TEXT,
    "apiTokenId" TEXT,
    CONSTRAINT "Request_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Request_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Request_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Request" ("args", "audience", "createdAt", "data", "expiresAt", "id", "kind", "ownerId", "payload", "prompt", "requestId", "resolvedAt", "runId", "status", "threadId", "toolCallId", "toolName", "updatedAt", "url") SELECT "args", "audience", "createdAt", "data", "expiresAt", "id", "kind", "ownerId", "payload", "prompt", "requestId", "resolvedAt", "runId", "status", "threadId", "toolCallId", "toolName", "updatedAt", "url" FROM "Request";
DROP TABLE "Request";
ALTER TABLE "new_Request" RENAME TO "Request";
CREATE INDEX "Request_ownerId_origin_createdAt_id_idx" ON "Request"("ownerId", "origin", "createdAt", "id");
CREATE INDEX "Request_status_audience_createdAt_id_idx" ON "Request"("status", "audience", "createdAt", "id");
CREATE INDEX "Request_status_audience_kind_createdAt_id_idx" ON "Request"("status", "audience", "kind", "createdAt", "id");
CREATE INDEX "Request_status_audience_expiresAt_createdAt_id_idx" ON "Request"("status", "audience", "expiresAt", "createdAt", "id");
CREATE INDEX "Request_ownerId_status_createdAt_idx" ON "Request"("ownerId", "status", "createdAt");
CREATE INDEX "Request_ownerId_status_expiresAt_createdAt_id_idx" ON "Request"("ownerId", "status", "expiresAt", "createdAt", "id");
CREATE INDEX "Request_status_expiresAt_idx" ON "Request"("status", "expiresAt");
CREATE INDEX "Request_runId_status_idx" ON "Request"("runId", "status");
CREATE INDEX "Request_threadId_idx" ON "Request"("threadId");
CREATE UNIQUE INDEX "Request_runId_requestId_key" ON "Request"("runId", "requestId");
CREATE UNIQUE INDEX "Request_ownerId_idempotencyKey_key" ON "Request"("ownerId", "idempotencyKey");
CREATE TABLE "new_Thread" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL DEFAULT 'chat',
    "lastEventSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Thread_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Thread" ("createdAt", "id", "lastEventSeq", "title", "updatedAt", "userId") SELECT "createdAt", "id", "lastEventSeq", "title", "updatedAt", "userId" FROM "Thread";
DROP TABLE "Thread";
ALTER TABLE "new_Thread" RENAME TO "Thread";
CREATE INDEX "Thread_userId_updatedAt_idx" ON "Thread"("userId", "updatedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_createdAt_idx" ON "ApiToken"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "ApiToken_createdAt_idx" ON "ApiToken"("createdAt");
