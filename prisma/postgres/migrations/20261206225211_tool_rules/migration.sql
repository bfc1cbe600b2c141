-- CreateTable
CREATE TABLE "ToolRule" (
    "id" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "condition" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "groupSlug" TEXT,
    "required" INTEGER NOT NULL DEFAULT 1,
    "updatedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ToolRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ToolRule_groupSlug_idx" ON "ToolRule"("groupSlug");

-- CreateIndex
CREATE UNIQUE INDEX "ToolRule_toolName_position_key" ON "ToolRule"("toolName", "position");

