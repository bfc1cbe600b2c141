-- AlterTable
ALTER TABLE "Request" ADD COLUMN     "audienceGroup" TEXT,
ADD COLUMN     "required" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "ApproverGroup" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApproverGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApproverGroupMember" (
    "groupId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "addedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "addedById" TEXT,

    CONSTRAINT "ApproverGroupMember_pkey" PRIMARY KEY ("groupId","userId")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApproverGroup_slug_key" ON "ApproverGroup"("slug");

-- CreateIndex
CREATE INDEX "ApproverGroupMember_userId_idx" ON "ApproverGroupMember"("userId");

-- AddForeignKey
ALTER TABLE "ApproverGroupMember" ADD CONSTRAINT "ApproverGroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ApproverGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApproverGroupMember" ADD CONSTRAINT "ApproverGroupMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

