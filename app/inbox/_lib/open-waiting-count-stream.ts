import { openVersionStream, type VersionStreamOptions } from "@/app/_lib/open-version-stream";
import { ownThreadNotices, type ThreadOwnerCache } from "@/app/_lib/thread-owner-cache";
import type { SessionUser } from "@/lib/auth/session-user";
import type { DbClient } from "@/lib/db/db-types";
import { countWaitingRequestsByViewer } from "@/lib/db/waiting-requests";
import type { EventBus } from "@/lib/engine/event-bus";

/**
 * Server-sent events carrying how many requests wait for the viewer (the nav's "Inbox 3"):
 * the number itself is the version, so the page shows it as it comes without re-rendering.
 * A user's count only moves with their own threads; a reviewer's with anyone's approvals.
 */
export function openWaitingCountStream(
  { actor, signal }: { actor: SessionUser; signal: AbortSignal },
  { db, bus, threadOwners }: { db: DbClient; bus: EventBus; threadOwners: ThreadOwnerCache },
  options: VersionStreamOptions = {},
): Response {
  const viewer = { id: actor.id, role: actor.role };
  const read = async () => String(await countWaitingRequestsByViewer({ db, viewer }));
  return openVersionStream(
    {
      read,
      ...(viewer.role === "user" ? { isRelevant: ownThreadNotices(threadOwners, viewer.id) } : {}),
      signal,
    },
    { bus },
    options,
  );
}
