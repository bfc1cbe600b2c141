-- CreateTable
CREATE TABLE "RequestVote" (
    "id" TEXT NOT NULL,
    "requestRowId" TEXT NOT NULL,
    "voterId" TEXT NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "note" TEXT,
    "arguments" JSONB,
    "argsHash" TEXT,
    "status" TEXT NOT NULL DEFAULT 'counted',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "voidedAt" TIMESTAMP(3),

    CONSTRAINT "RequestVote_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RequestVote_requestRowId_voterId_key" ON "RequestVote"("requestRowId", "voterId");

-- AddForeignKey
ALTER TABLE "RequestVote" ADD CONSTRAINT "RequestVote_requestRowId_fkey" FOREIGN KEY ("requestRowId") REFERENCES "Request"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RequestVote" ADD CONSTRAINT "RequestVote_voterId_fkey" FOREIGN KEY ("voterId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

