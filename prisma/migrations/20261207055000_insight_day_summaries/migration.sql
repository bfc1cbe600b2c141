-- CreateTable
CREATE TABLE "InsightDay" (
    "day" TEXT NOT NULL PRIMARY KEY,
    "summarisedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "InsightDaySummary" (
    "day" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "group" TEXT NOT NULL,
    "approved" INTEGER NOT NULL,
    "declined" INTEGER NOT NULL,
    "slowestMs" REAL NOT NULL,
    "histogram" TEXT NOT NULL,

    PRIMARY KEY ("day", "toolName", "group")
);
