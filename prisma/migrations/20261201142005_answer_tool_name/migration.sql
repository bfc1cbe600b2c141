-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Answer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestRowId" TEXT NOT NULL,
    "actorId" TEXT,
    "ok" BOOLEAN NOT NULL,
    "data" JSONB,
    "reason" TEXT,
    "toolName" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Answer_requestRowId_fkey" FOREIGN KEY ("requestRowId") REFERENCES "Request" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Answer_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
-- Answers already given take their request's tool (a request's tool never changes).
INSERT INTO "new_Answer" ("actorId", "createdAt", "data", "id", "ok", "reason", "requestRowId", "toolName") SELECT "Answer"."actorId", "Answer"."createdAt", "Answer"."data", "Answer"."id", "Answer"."ok", "Answer"."reason", "Answer"."requestRowId", COALESCE("Request"."toolName", '') FROM "Answer" LEFT JOIN "Request" ON "Request"."id" = "Answer"."requestRowId";
DROP TABLE "Answer";
ALTER TABLE "new_Answer" RENAME TO "Answer";
CREATE UNIQUE INDEX "Answer_requestRowId_key" ON "Answer"("requestRowId");
CREATE INDEX "Answer_actorId_idx" ON "Answer"("actorId");
CREATE INDEX "Answer_createdAt_id_idx" ON "Answer"("createdAt", "id");
CREATE INDEX "Answer_actorId_createdAt_id_idx" ON "Answer"("actorId", "createdAt", "id");
CREATE INDEX "Answer_ok_createdAt_id_idx" ON "Answer"("ok", "createdAt", "id");
CREATE INDEX "Answer_ok_reason_createdAt_id_idx" ON "Answer"("ok", "reason", "createdAt", "id");
CREATE INDEX "Answer_toolName_createdAt_id_idx" ON "Answer"("toolName", "createdAt", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
