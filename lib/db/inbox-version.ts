import type { RequestState } from "@/lib/domain/events";
import type { DbClient } from "./db-types";
import { type InboxHalf, type InboxQuery, inboxHalvesOf } from "./inbox-requests";

const STATUSES: readonly RequestState[] = ["open", "answered", "expired", "cancelled"];

/**
 * A short string that changes whenever a request the viewer's inbox can list is created or
 * leaves `open`, whatever the inbox's filters; the live inbox compares it instead of the rows.
 *
 * Per half of the inbox (`inboxHalvesOf`, as `listInboxRequests` reads them): the number of
 * open requests and the newest `createdAt`. A request only ever moves from `open` to a final
 * state, so a stretch with no new request but some resolved ones lowers the open count; and
 * with new requests, the newest of them is newer than every row before it, whatever state it
 * is in by now. The newest `createdAt` is read per status, because each `(status, audience, createdAt)`
 * and `(ownerId, status, createdAt)` index then yields it with one seek, and the count reads
 * only the open rows' index entries: no query touches the answered history.
 */
export async function getInboxVersionByViewer({
  db,
  viewer,
}: {
  db: DbClient;
  viewer: InboxQuery["viewer"];
}): Promise<string> {
  const parts = await Promise.all(inboxHalvesOf(viewer).map((half) => versionOfHalf(db, half)));
  return parts.join("|");
}

async function versionOfHalf(db: DbClient, half: InboxHalf): Promise<string> {
  const [open, ...newest] = await Promise.all([
    db.request.count({ where: { ...half, status: "open" } }),
    ...STATUSES.map((status) =>
      db.request.findFirst({
        where: { ...half, status },
        orderBy: { createdAt: "desc" },
        select: { createdAt: true },
      }),
    ),
  ]);
  const latest = Math.max(0, ...newest.map((row) => row?.createdAt.getTime() ?? 0));
  const taken = half.audience === "reviewers" ? await latestTakeChange(db) : "";
  return `${open}.${latest.toString(36)}${taken}`;
}

/**
 * Reviewers see who is on which of their requests, so a take (or letting go) moves their
 * version: the newest take change among open reviewers' requests, one seek of the
 * `(status, audience, takeChangedAt)` index. A take that lapses changes nothing stored; the
 * page hides it by its own clock.
 */
async function latestTakeChange(db: DbClient): Promise<string> {
  const row = await db.request.findFirst({
    where: { status: "open", audience: "reviewers", takeChangedAt: { not: null } },
    orderBy: { takeChangedAt: "desc" },
    select: { takeChangedAt: true },
  });
  return row?.takeChangedAt ? `.${row.takeChangedAt.getTime().toString(36)}` : "";
}
