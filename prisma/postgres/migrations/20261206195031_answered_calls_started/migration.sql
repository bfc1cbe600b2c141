-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "answeredCallsStarted" BOOLEAN NOT NULL DEFAULT false;

