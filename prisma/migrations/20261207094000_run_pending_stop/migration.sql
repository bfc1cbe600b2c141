-- A Stop refused while a run's answered calls run is stored with the run (ADR 0101): when it
-- falls due, every instance's sweep can end the run, not only the process that took the Stop.
-- AlterTable
ALTER TABLE "Run" ADD COLUMN "stopActorId" TEXT;
ALTER TABLE "Run" ADD COLUMN "stopDueAt" DATETIME;

-- CreateIndex
CREATE INDEX "Run_stopDueAt_idx" ON "Run"("stopDueAt");
