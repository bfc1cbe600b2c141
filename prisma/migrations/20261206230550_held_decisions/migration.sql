-- CreateTable
CREATE TABLE "HeldDecision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "answer" JSONB NOT NULL,
    "commitAt" DATETIME NOT NULL,
    "claimedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "HeldDecision_requestRowId_fkey" FOREIGN KEY ("requestRowId") REFERENCES "Request" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "HeldDecision_requestRowId_key" ON "HeldDecision"("requestRowId");

-- CreateIndex
CREATE INDEX "HeldDecision_commitAt_idx" ON "HeldDecision"("commitAt");
