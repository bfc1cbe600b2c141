import type { DbClient } from "@/lib/db/db-types";
import type { BareRequest } from "@/lib/db/requests";
import { resolveRequest } from "@/lib/db/resolve-request";
import type { Answer } from "@/lib/toolnexus/types";
import type { EventBus } from "./event-bus";
import { publishAll } from "./event-writer";

export interface ExpiryDeps {
  db: DbClient;
  bus: EventBus;
  /**
   * Continues the run in the background once none of its requests is open; `resolved` is an
   * answer the caller has just stored for one of them, which the run then need not read back.
   */
  resumeWhenReady: (runId: string, resolved?: Answer) => void;
}

/** Open and past its `expiresAt`; expiry sweeps run once a second, so reads check too. */
export function isDue(request: BareRequest, now = Date.now()): boolean {
  const at = request.request.expiresAt;
  return request.status === "open" && at !== undefined && Date.parse(at) <= now;
}

/** The system's answer to a request whose time is up; false when something else resolved it first. */
export async function expireRequest(
  deps: ExpiryDeps,
  request: { id: string; runId: string | null; threadId: string; toolName: string },
): Promise<boolean> {
  const { id, runId, threadId, toolName } = request;
  const claim = await resolveRequest({
    db: deps.db,
    id,
    runId,
    threadId,
    toolName,
    resolution: { status: "expired", actorId: null },
  });
  if (!claim.claimed) return false;
  const published = publishAll(deps.bus, claim.events);
  // A request made through the HTTP API has no run to continue: its client reads the expiry back.
  if (runId !== null) deps.resumeWhenReady(runId);
  await published;
  return true;
}
