-- Message.content keeps each message's JSON text exactly as written (json, not jsonb), so a resume
-- can verify a transcript's stored text as it stands (ADR 0052). Rows converted here carry
-- jsonb's own spelling (spaces, keys reordered), which the verification judges by value instead.
-- AlterTable
ALTER TABLE "Message" ALTER COLUMN "content" SET DATA TYPE JSON;
