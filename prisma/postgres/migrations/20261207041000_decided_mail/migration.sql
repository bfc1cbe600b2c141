-- AlterTable
ALTER TABLE "NotificationSetting" ADD COLUMN "emailWhenDecided" BOOLEAN NOT NULL DEFAULT false;
