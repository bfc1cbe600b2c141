-- An "add" step keeps the email of the person it adds rather than the account it found when the
-- ladder was copied: the engine reads whoever has the account with that email now.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RequestEscalationStep" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "after" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "action" JSONB NOT NULL,
    "dueAt" DATETIME NOT NULL,
    "firedAt" DATETIME,
    "lateMs" INTEGER,
    "addedEmail" TEXT,
    "addedGroup" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RequestEscalationStep_requestRowId_fkey" FOREIGN KEY ("requestRowId") REFERENCES "Request" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_RequestEscalationStep" ("action", "addedGroup", "after", "createdAt", "dueAt", "firedAt", "id", "kind", "lateMs", "position", "requestRowId") SELECT "action", "addedGroup", "after", "createdAt", "dueAt", "firedAt", "id", "kind", "lateMs", "position", "requestRowId" FROM "RequestEscalationStep";
DROP TABLE "RequestEscalationStep";
ALTER TABLE "new_RequestEscalationStep" RENAME TO "RequestEscalationStep";
CREATE INDEX "RequestEscalationStep_firedAt_dueAt_idx" ON "RequestEscalationStep"("firedAt", "dueAt");
CREATE INDEX "RequestEscalationStep_addedEmail_idx" ON "RequestEscalationStep"("addedEmail");
CREATE INDEX "RequestEscalationStep_addedGroup_idx" ON "RequestEscalationStep"("addedGroup");
CREATE UNIQUE INDEX "RequestEscalationStep_requestRowId_position_key" ON "RequestEscalationStep"("requestRowId", "position");
UPDATE "RequestEscalationStep" SET "addedEmail" = lower(trim(json_extract("action", '$.add')))
  WHERE "kind" = 'add' AND instr(json_extract("action", '$.add'), '@') > 0;
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
