-- CreateTable
CREATE TABLE "RequestVote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "voterId" TEXT NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "note" TEXT,
    "arguments" JSONB,
    "argsHash" TEXT,
    "status" TEXT NOT NULL DEFAULT 'counted',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "voidedAt" DATETIME,
    CONSTRAINT "RequestVote_requestRowId_fkey" FOREIGN KEY ("requestRowId") REFERENCES "Request" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RequestVote_voterId_fkey" FOREIGN KEY ("voterId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "RequestVote_requestRowId_voterId_key" ON "RequestVote"("requestRowId", "voterId");
