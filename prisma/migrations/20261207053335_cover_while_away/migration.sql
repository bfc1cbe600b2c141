-- AlterTable
ALTER TABLE "Answer" ADD COLUMN "forUserId" TEXT;

-- AlterTable
ALTER TABLE "RequestVote" ADD COLUMN "castById" TEXT;

-- CreateTable
CREATE TABLE "Absence" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "delegateId" TEXT NOT NULL,
    "startsAt" DATETIME NOT NULL,
    "endsAt" DATETIME NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Absence_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Absence_delegateId_fkey" FOREIGN KEY ("delegateId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Absence_userId_endsAt_idx" ON "Absence"("userId", "endsAt");

-- CreateIndex
CREATE INDEX "Absence_delegateId_endsAt_idx" ON "Absence"("delegateId", "endsAt");

-- Every vote so far was cast by its voter (no one covered for anyone yet).
UPDATE "RequestVote" SET "castById" = "voterId";

-- CreateIndex
CREATE UNIQUE INDEX "RequestVote_requestRowId_castById_key" ON "RequestVote"("requestRowId", "castById");
