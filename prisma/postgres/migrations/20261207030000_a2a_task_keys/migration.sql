-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "contextKey" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "clientMessageId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Thread_userId_contextKey_key" ON "Thread"("userId", "contextKey");

-- CreateIndex
CREATE UNIQUE INDEX "Run_userId_clientMessageId_key" ON "Run"("userId", "clientMessageId");

