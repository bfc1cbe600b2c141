-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN "oauth" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "McpServer" ADD COLUMN "oauthClientId" TEXT;
ALTER TABLE "McpServer" ADD COLUMN "oauthClientSecretEnc" TEXT;
ALTER TABLE "McpServer" ADD COLUMN "oauthScope" TEXT;

-- CreateTable
CREATE TABLE "McpConnection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "tokensEnc" TEXT NOT NULL,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "McpConnection_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "McpOAuthClient" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "server" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientInfoEnc" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "McpConnection_userId_server_key" ON "McpConnection"("userId", "server");

-- CreateIndex
CREATE UNIQUE INDEX "McpOAuthClient_server_key" ON "McpOAuthClient"("server");
