-- CreateTable
CREATE TABLE "ApiTokenToolGrant" (
    "tokenId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "grantedById" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("tokenId", "toolName"),
    CONSTRAINT "ApiTokenToolGrant_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "ApiToken" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
