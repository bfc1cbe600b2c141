import { openVersionStream, type VersionStreamOptions } from "@/app/_lib/open-version-stream";
import { ownThreadNotices, type ThreadOwnerCache } from "@/app/_lib/thread-owner-cache";
import type { SessionUser } from "@/lib/auth/session-user";
import type { DbClient } from "@/lib/db/db-types";
import { getThreadsVersionByOwner } from "@/lib/db/threads-version";
import type { EventBus } from "@/lib/engine/event-bus";

/**
 * Server-sent events telling a user when their chat sidebar changed (see `openVersionStream`):
 * a thread added, renamed or moved up, or its latest run starting, parking or ending. What it
 * compares is `getThreadsVersionByOwner`, so only the user's own threads count, and only their
 * notices are worth a check.
 */
export function openThreadsStream(
  { actor, signal }: { actor: SessionUser; signal: AbortSignal },
  { db, bus, threadOwners }: { db: DbClient; bus: EventBus; threadOwners: ThreadOwnerCache },
  options: VersionStreamOptions = {},
): Response {
  const userId = actor.id;
  return openVersionStream(
    {
      read: () => getThreadsVersionByOwner({ db, userId }),
      isRelevant: ownThreadNotices(threadOwners, userId),
      signal,
    },
    { bus },
    options,
  );
}
