import "server-only";
import type { Actor } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";

/**
 * How many open requests wait for `viewer` to answer: their own that only they may answer,
 * and for reviewers (and admins) every one addressed to the reviewers. Two counts, each read
 * from an index the inbox already keeps: `(status, audience, …)` and `(ownerId, status, …)`.
 */
export async function countWaitingRequestsByViewer({
  db,
  viewer,
}: {
  db: DbClient;
  viewer: Actor;
}): Promise<number> {
  const own = db.request.count({ where: { ownerId: viewer.id, status: "open", audience: "owner" } });
  if (viewer.role === "user") return own;
  const [mine, reviewers] = await Promise.all([
    own,
    db.request.count({ where: { status: "open", audience: "reviewers" } }),
  ]);
  return mine + reviewers;
}
