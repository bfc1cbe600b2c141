-- AlterTable
ALTER TABLE "RequestEscalationStep" ADD COLUMN "addedGroup" TEXT;
ALTER TABLE "RequestEscalationStep" ADD COLUMN "addedUserId" TEXT;

-- CreateIndex
CREATE INDEX "RequestEscalationStep_addedUserId_idx" ON "RequestEscalationStep"("addedUserId");

-- CreateIndex
CREATE INDEX "RequestEscalationStep_addedGroup_idx" ON "RequestEscalationStep"("addedGroup");

-- The "add" steps copied before: whom each adds, a group by its slug, a person by their account.
UPDATE "RequestEscalationStep" SET "addedGroup" = json_extract("action", '$.add')
  WHERE "kind" = 'add' AND instr(json_extract("action", '$.add'), '@') = 0;
UPDATE "RequestEscalationStep" SET "addedUserId" = (
    SELECT u."id" FROM "User" u WHERE u."email" = lower(trim(json_extract("RequestEscalationStep"."action", '$.add'))))
  WHERE "kind" = 'add' AND instr(json_extract("action", '$.add'), '@') > 0;
