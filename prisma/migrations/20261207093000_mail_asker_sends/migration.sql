-- CreateTable
CREATE TABLE "MailAskerSend" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "askerId" TEXT NOT NULL,
    "at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "MailAskerSend_askerId_at_idx" ON "MailAskerSend"("askerId", "at");
