import type { DbClient } from "./db-types";
import { hotSqlOf, readSqlTime, sql, sqlTable } from "./hot-sql";
import type { InboxQuery } from "./inbox-requests";

type VersionRow = Record<
  `${"r" | "o"}${"Open" | "Answered" | "Expired" | "Cancelled"}` | "rCount" | "oCount" | "taken",
  unknown
>;

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
 *
 * One statement of scalar subqueries, sent beside Prisma's typed client (ADR 0045): every open
 * inbox stream reads it on connect and again after each notice that may concern it, so a
 * reviewer's eleven typed queries per look were most of what a thousand open inboxes cost the
 * server (docs/benchmarks.md, item 10). Plans pinned in inbox-version.test.ts.
 */
export async function getInboxVersionByViewer({
  db,
  viewer,
}: {
  db: DbClient;
  viewer: InboxQuery["viewer"];
}): Promise<string> {
  const hot = hotSqlOf(db);
  const R = sqlTable("Request");
  if (viewer.role === "user") {
    // The user's own requests: the `(ownerId, status, createdAt)` index.
    const [row] = await hot.query<VersionRow>(sql`
      SELECT
        (SELECT count(*) FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'open') AS "oCount",
        (SELECT "createdAt" FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'open'
          ORDER BY "createdAt" DESC LIMIT 1) AS "oOpen",
        (SELECT "createdAt" FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'answered'
          ORDER BY "createdAt" DESC LIMIT 1) AS "oAnswered",
        (SELECT "createdAt" FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'expired'
          ORDER BY "createdAt" DESC LIMIT 1) AS "oExpired",
        (SELECT "createdAt" FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'cancelled'
          ORDER BY "createdAt" DESC LIMIT 1) AS "oCancelled"`);
    return halfVersion(row!, "o");
  }
  // Reviewers (and admins): every reviewers' request, by `(status, audience, createdAt)`, who has
  // taken which by `(status, audience, takeChangedAt)`; and apart from them their own others.
  const [row] = await hot.query<VersionRow>(sql`
    SELECT
      (SELECT count(*) FROM ${R} WHERE "status" = 'open' AND "audience" = 'reviewers') AS "rCount",
      (SELECT "createdAt" FROM ${R} WHERE "status" = 'open' AND "audience" = 'reviewers'
        ORDER BY "createdAt" DESC LIMIT 1) AS "rOpen",
      (SELECT "createdAt" FROM ${R} WHERE "status" = 'answered' AND "audience" = 'reviewers'
        ORDER BY "createdAt" DESC LIMIT 1) AS "rAnswered",
      (SELECT "createdAt" FROM ${R} WHERE "status" = 'expired' AND "audience" = 'reviewers'
        ORDER BY "createdAt" DESC LIMIT 1) AS "rExpired",
      (SELECT "createdAt" FROM ${R} WHERE "status" = 'cancelled' AND "audience" = 'reviewers'
        ORDER BY "createdAt" DESC LIMIT 1) AS "rCancelled",
      (SELECT "takeChangedAt" FROM ${R} WHERE "status" = 'open' AND "audience" = 'reviewers'
        AND "takeChangedAt" IS NOT NULL ORDER BY "takeChangedAt" DESC LIMIT 1) AS "taken",
      (SELECT count(*) FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'open'
        AND "audience" <> 'reviewers') AS "oCount",
      (SELECT "createdAt" FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'open'
        AND "audience" <> 'reviewers' ORDER BY "createdAt" DESC LIMIT 1) AS "oOpen",
      (SELECT "createdAt" FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'answered'
        AND "audience" <> 'reviewers' ORDER BY "createdAt" DESC LIMIT 1) AS "oAnswered",
      (SELECT "createdAt" FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'expired'
        AND "audience" <> 'reviewers' ORDER BY "createdAt" DESC LIMIT 1) AS "oExpired",
      (SELECT "createdAt" FROM ${R} WHERE "ownerId" = ${viewer.id} AND "status" = 'cancelled'
        AND "audience" <> 'reviewers' ORDER BY "createdAt" DESC LIMIT 1) AS "oCancelled"`);
  // A take (or letting go) moves the reviewers' version: they see who is on which request. A
  // take that lapses changes nothing stored; the page hides it by its own clock.
  const taken = row!.taken === null ? "" : `.${readSqlTime(row!.taken).getTime().toString(36)}`;
  return `${halfVersion(row!, "r")}${taken}|${halfVersion(row!, "o")}`;
}

/** `<open count>.<newest createdAt of any status, base 36>` of one half. */
function halfVersion(row: VersionRow, half: "r" | "o"): string {
  const times = (["Open", "Answered", "Expired", "Cancelled"] as const).map((status) => {
    const at = row[`${half}${status}`];
    return at === null ? 0 : readSqlTime(at).getTime();
  });
  return `${Number(row[`${half}Count`])}.${Math.max(0, ...times).toString(36)}`;
}
