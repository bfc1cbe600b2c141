-- CreateTable
CREATE TABLE "BuiltinTool" (
    "toolName" TEXT NOT NULL,
    "enabledById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BuiltinTool_pkey" PRIMARY KEY ("toolName")
);

