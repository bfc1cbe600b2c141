-- CreateTable
CREATE TABLE "NotificationSetting" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "emailMode" TEXT NOT NULL DEFAULT 'instant',
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "MailNotice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "MailItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "dueAt" DATETIME NOT NULL,
    "batchId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "MailNotice_requestRowId_key" ON "MailNotice"("requestRowId");

-- CreateIndex
CREATE INDEX "MailNotice_status_nextAttemptAt_idx" ON "MailNotice"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "MailItem_status_mode_dueAt_idx" ON "MailItem"("status", "mode", "dueAt");

-- CreateIndex
CREATE INDEX "MailItem_batchId_idx" ON "MailItem"("batchId");

-- CreateIndex
CREATE UNIQUE INDEX "MailItem_requestRowId_userId_key" ON "MailItem"("requestRowId", "userId");
