-- DropIndex
DROP INDEX "MailItem_requestRowId_userId_key";

-- DropIndex
DROP INDEX "MailNotice_requestRowId_key";

-- AlterTable
ALTER TABLE "MailItem" ADD COLUMN     "stepId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "MailNotice" ADD COLUMN     "stepId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "ToolRule" ADD COLUMN     "escalation" JSONB;

-- CreateTable
CREATE TABLE "RequestEscalationStep" (
    "id" TEXT NOT NULL,
    "requestRowId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "after" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "action" JSONB NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "firedAt" TIMESTAMP(3),
    "lateMs" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RequestEscalationStep_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RequestEscalationStep_firedAt_dueAt_idx" ON "RequestEscalationStep"("firedAt", "dueAt");

-- CreateIndex
CREATE UNIQUE INDEX "RequestEscalationStep_requestRowId_position_key" ON "RequestEscalationStep"("requestRowId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "MailItem_requestRowId_userId_stepId_key" ON "MailItem"("requestRowId", "userId", "stepId");

-- CreateIndex
CREATE UNIQUE INDEX "MailNotice_requestRowId_stepId_key" ON "MailNotice"("requestRowId", "stepId");

-- AddForeignKey
ALTER TABLE "RequestEscalationStep" ADD CONSTRAINT "RequestEscalationStep_requestRowId_fkey" FOREIGN KEY ("requestRowId") REFERENCES "Request"("id") ON DELETE CASCADE ON UPDATE CASCADE;

