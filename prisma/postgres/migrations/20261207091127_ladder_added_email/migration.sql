-- An "add" step keeps the email of the person it adds rather than the account it found when the
-- ladder was copied: the engine reads whoever has the account with that email now.
-- DropIndex
DROP INDEX "RequestEscalationStep_addedUserId_idx";

-- AlterTable
ALTER TABLE "RequestEscalationStep" DROP COLUMN "addedUserId",
ADD COLUMN     "addedEmail" TEXT;

-- CreateIndex
CREATE INDEX "RequestEscalationStep_addedEmail_idx" ON "RequestEscalationStep"("addedEmail");

UPDATE "RequestEscalationStep" SET "addedEmail" = lower(trim("action"->>'add'))
  WHERE "kind" = 'add' AND strpos("action"->>'add', '@') > 0;
