-- AlterTable
ALTER TABLE "Answer" ADD COLUMN     "toolName" TEXT NOT NULL DEFAULT '';

-- Answers already given take their request's tool (a request's tool never changes).
UPDATE "Answer" SET "toolName" = "Request"."toolName" FROM "Request" WHERE "Request"."id" = "Answer"."requestRowId";

-- CreateIndex
CREATE INDEX "Answer_toolName_createdAt_id_idx" ON "Answer"("toolName", "createdAt", "id");

