-- AlterTable
ALTER TABLE "RequestEscalationStep" ADD COLUMN     "addedGroup" TEXT,
ADD COLUMN     "addedUserId" TEXT;

-- CreateIndex
CREATE INDEX "RequestEscalationStep_addedUserId_idx" ON "RequestEscalationStep"("addedUserId");

-- CreateIndex
CREATE INDEX "RequestEscalationStep_addedGroup_idx" ON "RequestEscalationStep"("addedGroup");


-- The "add" steps copied before: whom each adds, a group by its slug, a person by their account.
UPDATE "RequestEscalationStep" SET "addedGroup" = "action"->>'add'
  WHERE "kind" = 'add' AND strpos("action"->>'add', '@') = 0;
UPDATE "RequestEscalationStep" s SET "addedUserId" = u."id" FROM "User" u
  WHERE s."kind" = 'add' AND strpos(s."action"->>'add', '@') > 0
    AND u."email" = lower(trim(s."action"->>'add'));
