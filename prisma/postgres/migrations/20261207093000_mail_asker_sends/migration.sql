-- CreateTable
CREATE TABLE "MailAskerSend" (
    "id" TEXT NOT NULL,
    "askerId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MailAskerSend_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MailAskerSend_askerId_at_idx" ON "MailAskerSend"("askerId", "at");
