-- CreateTable
CREATE TABLE "ToolRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "toolName" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "condition" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "groupSlug" TEXT,
    "required" INTEGER NOT NULL DEFAULT 1,
    "updatedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "ToolRule_groupSlug_idx" ON "ToolRule"("groupSlug");

-- CreateIndex
CREATE UNIQUE INDEX "ToolRule_toolName_position_key" ON "ToolRule"("toolName", "position");
