-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "model" TEXT NOT NULL,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "totalTokens" INTEGER NOT NULL DEFAULT 0,
    "checkpoint" JSONB,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "error" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "savedEventSeq" INTEGER NOT NULL DEFAULT 0,
    "openRequests" INTEGER NOT NULL DEFAULT 0,
    "answeredCallsStarted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Run_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("checkpoint", "completionTokens", "createdAt", "error", "id", "leaseExpiresAt", "leaseOwner", "model", "openRequests", "promptTokens", "savedEventSeq", "status", "threadId", "totalTokens", "turns", "updatedAt", "userId", "version") SELECT "checkpoint", "completionTokens", "createdAt", "error", "id", "leaseExpiresAt", "leaseOwner", "model", "openRequests", "promptTokens", "savedEventSeq", "status", "threadId", "totalTokens", "turns", "updatedAt", "userId", "version" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");
CREATE INDEX "Run_status_openRequests_id_idx" ON "Run"("status", "openRequests", "id");
CREATE INDEX "Run_threadId_createdAt_idx" ON "Run"("threadId", "createdAt");
CREATE INDEX "Run_userId_createdAt_idx" ON "Run"("userId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
