-- CreateTable
CREATE TABLE "BuiltinTool" (
    "toolName" TEXT NOT NULL PRIMARY KEY,
    "enabledById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
