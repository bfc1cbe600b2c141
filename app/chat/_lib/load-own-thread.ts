import type { SessionUser } from "@/lib/auth/session-user";
import { getThreadById, type ThreadSummary } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";
import { AppError } from "@/lib/errors";

/** A chat is private to its owner: anyone else, reviewers and admins included, gets a 403. */
export async function loadOwnThread(
  { actor, threadId }: { actor: SessionUser; threadId: string },
  { db }: { db: DbClient },
): Promise<ThreadSummary> {
  const thread = await getThreadById({ db, threadId });
  if (!thread) throw new AppError("not_found:thread");
  if (thread.userId !== actor.id) throw new AppError("forbidden:thread");
  return thread;
}
