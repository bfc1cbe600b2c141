-- CreateTable
CREATE TABLE "ToolPolicy" (
    "toolName" TEXT NOT NULL PRIMARY KEY,
    "policy" TEXT NOT NULL,
    "updatedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ThreadToolAllowance" (
    "threadId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "grantedById" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("threadId", "toolName"),
    CONSTRAINT "ThreadToolAllowance_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
