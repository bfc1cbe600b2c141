-- CreateTable
CREATE TABLE "ApproverGroup" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ApproverGroupMember" (
    "groupId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "addedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "addedById" TEXT,

    PRIMARY KEY ("groupId", "userId"),
    CONSTRAINT "ApproverGroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ApproverGroup" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApproverGroupMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
    "audienceGroup" TEXT,
    "required" INTEGER NOT NULL DEFAULT 1,
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "resolvedAt" DATETIME,
    "origin" TEXT NOT NULL DEFAULT 'run',
    "idempotencyKey" TEXT,
    "createHash" TEXT,
    "apiTokenId" TEXT,
    "takenById" TEXT,
    "takenUntil" DATETIME,
    "takeChangedAt" DATETIME,
    CONSTRAINT "Request_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Request_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Request_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Request" ("apiTokenId", "args", "audience", "createHash", "createdAt", "data", "expiresAt", "id", "idempotencyKey", "kind", "origin", "ownerId", "payload", "prompt", "requestId", "resolvedAt", "runId", "status", "takeChangedAt", "takenById", "takenUntil", "threadId", "toolCallId", "toolName", "updatedAt", "url") SELECT "apiTokenId", "args", "audience", "createHash", "createdAt", "data", "expiresAt", "id", "idempotencyKey", "kind", "origin", "ownerId", "payload", "prompt", "requestId", "resolvedAt", "runId", "status", "takeChangedAt", "takenById", "takenUntil", "threadId", "toolCallId", "toolName", "updatedAt", "url" FROM "Request";
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
CREATE INDEX "Request_status_audience_takeChangedAt_idx" ON "Request"("status", "audience", "takeChangedAt");
CREATE INDEX "Request_toolName_idx" ON "Request"("toolName");
CREATE UNIQUE INDEX "Request_runId_requestId_key" ON "Request"("runId", "requestId");
CREATE UNIQUE INDEX "Request_ownerId_idempotencyKey_key" ON "Request"("ownerId", "idempotencyKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ApproverGroup_slug_key" ON "ApproverGroup"("slug");

-- CreateIndex
CREATE INDEX "ApproverGroupMember_userId_idx" ON "ApproverGroupMember"("userId");
