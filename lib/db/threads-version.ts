import "server-only";
import { createHash } from "node:crypto";
import type { DbClient } from "./db-types";
import { listThreadsWithStatusByOwner, type ThreadListItem } from "./threads-with-status";

/**
 * A short digest of what the chat sidebar shows: the listed threads in order, with their
 * titles and statuses. The page computes it from the rows it rendered, so the two always agree.
 *
 * Not the threads' `updatedAt`: every event appended moves it, text deltas included, and the
 * chat being watched would then re-render its page after every quiet period of a reply.
 */
export function threadsVersionOf(threads: readonly ThreadListItem[]): string {
  const hash = createHash("sha256");
  for (const thread of threads)
    hash.update(`${thread.id}\u0000${thread.status ?? ""}\u0000${thread.title}\u0000`);
  return hash.digest("base64url").slice(0, 22);
}

/** The version of the owner's sidebar as it stands (see `threadsVersionOf`). */
export async function getThreadsVersionByOwner({
  db,
  userId,
}: {
  db: DbClient;
  userId: string;
}): Promise<string> {
  return threadsVersionOf(await listThreadsWithStatusByOwner({ db, userId }));
}
