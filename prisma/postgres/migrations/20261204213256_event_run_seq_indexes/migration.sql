-- DropIndex
DROP INDEX "Event_runId_idx";

-- CreateIndex
CREATE INDEX "Event_runId_seq_idx" ON "Event"("runId", "seq");

-- CreateIndex
CREATE INDEX "Event_runId_type_seq_idx" ON "Event"("runId", "type", "seq");

