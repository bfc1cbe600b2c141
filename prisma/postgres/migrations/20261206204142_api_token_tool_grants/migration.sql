-- CreateTable
CREATE TABLE "ApiTokenToolGrant" (
    "tokenId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "grantedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiTokenToolGrant_pkey" PRIMARY KEY ("tokenId","toolName")
);

-- AddForeignKey
ALTER TABLE "ApiTokenToolGrant" ADD CONSTRAINT "ApiTokenToolGrant_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "ApiToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;

