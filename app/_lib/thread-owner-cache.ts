import type { DbClient } from "@/lib/db/db-types";
import { getThreadOwnerById } from "@/lib/db/runs";
import type { NoticeFilter } from "./open-version-stream";

export interface ThreadOwnerCache {
  /** The id of the user who owns the thread, or null when there is no such thread. */
  ownerOf(threadId: string): Promise<string | null>;
}

// About a megabyte of ids: far more threads than are active at once in one process.
const CAPACITY = 10_000;

/**
 * Who owns which thread, remembered for the process: the live streams ask it for every notice
 * on the bus, and a thread's owner never changes, so each thread costs one query and then none.
 * The least recently asked threads are forgotten beyond `capacity`. Callers asking about the
 * same thread while its query runs share that query. Threads not found and failed queries are
 * not remembered, so a later question asks again.
 */
export function createThreadOwnerCache({
  db,
  capacity = CAPACITY,
  onLookup,
}: {
  db: DbClient;
  capacity?: number;
  /** Before each query, with the thread asked about (tests count them). */
  onLookup?: (threadId: string) => void;
}): ThreadOwnerCache {
  // A Map iterates in insertion order; re-inserting on every hit keeps the coldest entry first.
  const owners = new Map<string, string>();
  const pending = new Map<string, Promise<string | null>>();

  const remember = (threadId: string, ownerId: string) => {
    owners.delete(threadId);
    owners.set(threadId, ownerId);
    if (owners.size > capacity) owners.delete(owners.keys().next().value!);
  };

  const lookUp = (threadId: string) => {
    onLookup?.(threadId);
    const lookup = getThreadOwnerById({ db, threadId })
      .then((row) => {
        if (row) remember(threadId, row.userId);
        return row?.userId ?? null;
      })
      .finally(() => pending.delete(threadId));
    pending.set(threadId, lookup);
    return lookup;
  };

  return {
    ownerOf(threadId) {
      const known = owners.get(threadId);
      if (known !== undefined) {
        remember(threadId, known);
        return Promise.resolve(known);
      }
      return pending.get(threadId) ?? lookUp(threadId);
    },
  };
}

/** A stream's notice filter for a viewer who may see only their own threads. */
export function ownThreadNotices(threadOwners: ThreadOwnerCache, userId: string): NoticeFilter {
  return async ({ threadId }) => (await threadOwners.ownerOf(threadId)) === userId;
}
