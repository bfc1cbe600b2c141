-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN     "oauth" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "oauthClientId" TEXT,
ADD COLUMN     "oauthClientSecretEnc" TEXT,
ADD COLUMN     "oauthScope" TEXT;

-- CreateTable
CREATE TABLE "McpConnection" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "tokensEnc" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "McpOAuthClient" (
    "id" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientInfoEnc" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpOAuthClient_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "McpConnection_userId_server_key" ON "McpConnection"("userId", "server");

-- CreateIndex
CREATE UNIQUE INDEX "McpOAuthClient_server_key" ON "McpOAuthClient"("server");

-- AddForeignKey
ALTER TABLE "McpConnection" ADD CONSTRAINT "McpConnection_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
