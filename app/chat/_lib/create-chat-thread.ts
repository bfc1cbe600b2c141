import type { SessionUser } from "@/lib/auth/session-user";
import { createThread } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";

/** A new, empty chat for the signed-in user; it is named after its first message. */
export async function createChatThread(
  { actor }: { actor: SessionUser },
  { db }: { db: DbClient },
): Promise<{ threadId: string }> {
  const thread = await createThread({ db, userId: actor.id });
  return { threadId: thread.id };
}
