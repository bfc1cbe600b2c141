import "server-only";
import { type EmailMode, parseEmailMode } from "@/lib/domain/notifications";
import type { DbClient } from "./db-types";

// How each person wants to hear of requests by email, as they set it on their settings page: a
// row for each person who chose, "instant" for everyone else.

export async function getEmailModeByUser({
  db,
  userId,
}: {
  db: DbClient;
  userId: string;
}): Promise<EmailMode> {
  const row = await db.notificationSetting.findUnique({ where: { userId } });
  return parseEmailMode(row?.emailMode);
}

export async function setEmailModeByUser({
  db,
  userId,
  mode,
}: {
  db: DbClient;
  userId: string;
  mode: EmailMode;
}) {
  await db.notificationSetting.upsert({
    where: { userId },
    create: { userId, emailMode: mode },
    update: { emailMode: mode },
  });
}
