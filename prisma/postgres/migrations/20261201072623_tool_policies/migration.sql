-- CreateTable
CREATE TABLE "ToolPolicy" (
    "toolName" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "updatedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ToolPolicy_pkey" PRIMARY KEY ("toolName")
);

-- CreateTable
CREATE TABLE "ThreadToolAllowance" (
    "threadId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "grantedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ThreadToolAllowance_pkey" PRIMARY KEY ("threadId","toolName")
);

-- AddForeignKey
ALTER TABLE "ThreadToolAllowance" ADD CONSTRAINT "ThreadToolAllowance_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

