-- CreateTable
CREATE TABLE "HeldDecision" (
    "id" TEXT NOT NULL,
    "requestRowId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "answer" JSONB NOT NULL,
    "commitAt" TIMESTAMP(3) NOT NULL,
    "claimedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HeldDecision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "HeldDecision_requestRowId_key" ON "HeldDecision"("requestRowId");

-- CreateIndex
CREATE INDEX "HeldDecision_commitAt_idx" ON "HeldDecision"("commitAt");

-- AddForeignKey
ALTER TABLE "HeldDecision" ADD CONSTRAINT "HeldDecision_requestRowId_fkey" FOREIGN KEY ("requestRowId") REFERENCES "Request"("id") ON DELETE CASCADE ON UPDATE CASCADE;

