-- CreateTable
CREATE TABLE "NotificationSetting" (
    "userId" TEXT NOT NULL,
    "emailMode" TEXT NOT NULL DEFAULT 'instant',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotificationSetting_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "MailNotice" (
    "id" TEXT NOT NULL,
    "requestRowId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MailNotice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MailItem" (
    "id" TEXT NOT NULL,
    "requestRowId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "dueAt" TIMESTAMP(3) NOT NULL,
    "batchId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MailItem_pkey" PRIMARY KEY ("id")
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

