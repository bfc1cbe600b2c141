-- CreateTable
CREATE TABLE "InsightDay" (
    "day" TEXT NOT NULL,
    "summarisedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InsightDay_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "InsightDaySummary" (
    "day" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "group" TEXT NOT NULL,
    "approved" INTEGER NOT NULL,
    "declined" INTEGER NOT NULL,
    "slowestMs" DOUBLE PRECISION NOT NULL,
    "histogram" TEXT NOT NULL,

    CONSTRAINT "InsightDaySummary_pkey" PRIMARY KEY ("day","toolName","group")
);

