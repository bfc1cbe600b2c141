-- AlterTable
ALTER TABLE "ToolRule" ADD COLUMN "escalation" JSONB;

-- CreateTable
CREATE TABLE "RequestEscalationStep" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "after" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "action" JSONB NOT NULL,
    "dueAt" DATETIME NOT NULL,
    "firedAt" DATETIME,
    "lateMs" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RequestEscalationStep_requestRowId_fkey" FOREIGN KEY ("requestRowId") REFERENCES "Request" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_MailItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL DEFAULT '',
    "mode" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "dueAt" DATETIME NOT NULL,
    "batchId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_MailItem" ("attempts", "batchId", "createdAt", "dueAt", "id", "lastError", "mode", "requestRowId", "sentAt", "status", "userId") SELECT "attempts", "batchId", "createdAt", "dueAt", "id", "lastError", "mode", "requestRowId", "sentAt", "status", "userId" FROM "MailItem";
DROP TABLE "MailItem";
ALTER TABLE "new_MailItem" RENAME TO "MailItem";
CREATE INDEX "MailItem_status_mode_dueAt_idx" ON "MailItem"("status", "mode", "dueAt");
CREATE INDEX "MailItem_batchId_idx" ON "MailItem"("batchId");
CREATE UNIQUE INDEX "MailItem_requestRowId_userId_stepId_key" ON "MailItem"("requestRowId", "userId", "stepId");
CREATE TABLE "new_MailNotice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_MailNotice" ("createdAt", "id", "leaseOwner", "nextAttemptAt", "requestRowId", "status") SELECT "createdAt", "id", "leaseOwner", "nextAttemptAt", "requestRowId", "status" FROM "MailNotice";
DROP TABLE "MailNotice";
ALTER TABLE "new_MailNotice" RENAME TO "MailNotice";
CREATE INDEX "MailNotice_status_nextAttemptAt_idx" ON "MailNotice"("status", "nextAttemptAt");
CREATE UNIQUE INDEX "MailNotice_requestRowId_stepId_key" ON "MailNotice"("requestRowId", "stepId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "RequestEscalationStep_firedAt_dueAt_idx" ON "RequestEscalationStep"("firedAt", "dueAt");

-- CreateIndex
CREATE UNIQUE INDEX "RequestEscalationStep_requestRowId_position_key" ON "RequestEscalationStep"("requestRowId", "position");
