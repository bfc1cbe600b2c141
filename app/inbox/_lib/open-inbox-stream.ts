import { openVersionStream, type VersionStreamOptions } from "@/app/_lib/open-version-stream";
import type { SessionUser } from "@/lib/auth/session-user";
import type { DbClient } from "@/lib/db/db-types";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import type { EventBus } from "@/lib/engine/event-bus";

export type InboxStreamOptions = VersionStreamOptions;

/**
 * Server-sent events telling one viewer when their inbox changed (see `openVersionStream`):
 * what it compares is `getInboxVersionByViewer`, so who may see which request stays the
 * version query's business.
 */
export function openInboxStream(
  { actor, signal }: { actor: SessionUser; signal: AbortSignal },
  { db, bus }: { db: DbClient; bus: EventBus },
  options: InboxStreamOptions = {},
): Response {
  const viewer = { id: actor.id, role: actor.role };
  return openVersionStream({ read: () => getInboxVersionByViewer({ db, viewer }), signal }, { bus }, options);
}
