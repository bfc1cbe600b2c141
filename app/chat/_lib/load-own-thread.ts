import type { SessionUser } from "@/lib/auth/session-user";
import { getThreadById, type ThreadSummary } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";
import { AppError } from "@/lib/errors";

/**
 * A chat is private to its owner. Anyone else, reviewers and admins included, is told it does
 * not exist, exactly as for an unknown id, so a chat id reveals nothing to a stranger.
 */
export async function loadOwnThread(
  { actor, threadId }: { actor: SessionUser; threadId: string },
  { db }: { db: DbClient },
): Promise<ThreadSummary> {
  const thread = await getThreadById({ db, threadId });
  if (!thread || thread.userId !== actor.id) throw new AppError("not_found:thread");
  return thread;
}
