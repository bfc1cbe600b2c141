import { openVersionStream, type VersionStreamOptions } from "@/app/_lib/open-version-stream";
import { ownThreadNotices, type ThreadOwnerCache } from "@/app/_lib/thread-owner-cache";
import type { SessionUser } from "@/lib/auth/session-user";
import { listGroupSlugsForUser } from "@/lib/db/approver-groups";
import type { DbClient } from "@/lib/db/db-types";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import type { EventBus, EventNotice } from "@/lib/engine/event-bus";

/**
 * Server-sent events telling one viewer when their inbox changed (see `openVersionStream`):
 * what it compares is `getInboxVersionByViewer`, so who may see which request stays the
 * version query's business. A user's inbox lists requests of their own runs, which run in
 * their own threads, so only those threads' notices are worth a check; a reviewer's lists
 * approvals from anyone, and so does a group member's (the groups' requests run in the askers'
 * threads), so every notice is. Membership is read when the stream opens: one who joins a group
 * meanwhile sees its requests from the next connection or page load.
 */
export function openInboxStream(
  { actor, signal }: { actor: SessionUser; signal: AbortSignal },
  { db, bus, threadOwners }: { db: DbClient; bus: EventBus; threadOwners: ThreadOwnerCache },
  options: VersionStreamOptions = {},
): Response {
  const viewer = { id: actor.id, role: actor.role };
  const read = () => getInboxVersionByViewer({ db, viewer });
  if (viewer.role !== "user") return openVersionStream({ read, signal }, { bus }, options);
  const ownThread = ownThreadNotices(threadOwners, viewer.id);
  let votes: Promise<boolean> | undefined;
  const isRelevant = async (notice: EventNotice) => {
    votes ??= listGroupSlugsForUser({ db, userId: viewer.id }).then((slugs) => slugs.length > 0);
    return (await votes) || ownThread(notice);
  };
  return openVersionStream({ read, isRelevant, signal }, { bus }, options);
}
