import type { DbClient } from "./db-types";
import { type InboxHalf, type InboxQuery, inboxHalvesOf } from "./inbox-requests";
import { namedHalfSql } from "./named-half";
import { hotSqlOf, readSqlTime, type SqlStatement, sql, sqlColumns, sqlJoin, sqlTable } from "./sql/hot-sql";

type VersionRow = Record<
  | `${"r" | "o" | "g" | "n"}${"Open" | "Answered" | "Expired" | "Cancelled"}`
  | "rCount"
  | "oCount"
  | "gCount"
  | "nCount"
  | "taken"
  | "votedOwn"
  | "votedGroup"
  | "votedNamed"
  | `${"r" | "o" | "g" | "n"}Escalated`,
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
  const halves = inboxHalvesOf(viewer);
  // A user's one half is their own ("o"); a reviewer's are the reviewers' ("r") and their own.
  const prefixes = halves.length === 1 ? (["o"] as const) : (["r", "o"] as const);
  const columns = halves.flatMap((half, at) => halfColumns(half, prefixes[at]!));
  // Who has taken which of the reviewers' requests, by `(status, audience, takeChangedAt)`.
  if (halves.length === 2)
    columns.push(
      newest(halfWhere(halves[0], "open", sql`AND "takeChangedAt" IS NOT NULL`), "takeChangedAt", "taken"),
    );
  // The groups' requests the viewer votes on (or, as an admin, audits), as a third half, read in
  // the same statement: the viewer's groups are a subquery, not a read of their own.
  columns.push(...halfColumns(groupHalfInSql(viewer), "g"));
  columns.push(...newestVotes(viewer));
  const escalatedHalves = [...halves, groupHalfInSql(viewer)];
  columns.push(...newestEscalations(escalatedHalves, [...prefixes, "g"]));
  // What a ladder added the viewer to, or someone away they cover is named on (named-half.ts).
  columns.push(...namedHalfColumns(viewer, new Date()));
  const [row] = await hotSqlOf(db).query<VersionRow>(sql`SELECT ${sqlJoin(columns, ", ")}`);
  // A vote that does not settle a group's request leaves it open: its tally moves the version.
  const voteTimes = [row!.votedOwn, row!.votedGroup, row!.votedNamed].map((at) =>
    at === null ? 0 : readSqlTime(at).getTime(),
  );
  const voted = Math.max(...voteTimes) === 0 ? "" : `.${Math.max(...voteTimes).toString(36)}`;
  const groups = `|${halfVersion(row!, "g")}|${halfVersion(row!, "n")}${voted}${escalatedSuffix(row!)}`;
  if (halves.length === 1) return `${halfVersion(row!, "o")}${groups}`;
  // A take (or letting go) moves the reviewers' version: they see who is on which request. A
  // take that lapses changes nothing stored; the page hides it by its own clock.
  const taken = row!.taken === null ? "" : `.${readSqlTime(row!.taken).getTime().toString(36)}`;
  return `${halfVersion(row!, "r")}${taken}|${halfVersion(row!, "o")}${groups}`;
}

/** `groupHalfOf` (inbox-requests.ts) with the viewer's groups as a subquery. */
function groupHalfInSql(viewer: InboxQuery["viewer"]): VersionHalf {
  const half = { audience: "group", ownerId: { not: viewer.id } };
  return viewer.role === "admin" ? half : { ...half, memberOf: viewer.id };
}

type VersionHalf = InboxHalf & { memberOf?: string };

/**
 * The newest vote on an open group request the viewer sees: one they asked ("votedOwn") and one
 * they vote on ("votedGroup", `groupHalfInSql`). Open group requests are few; each one's votes
 * are read by the `(requestRowId, voterId)` index, correlated so that no set is sorted.
 */
function newestVotes(viewer: InboxQuery["viewer"]): SqlStatement[] {
  const halves = [
    ["votedOwn", { audience: "group", ownerId: viewer.id }],
    ["votedGroup", groupHalfInSql(viewer)],
  ] as const;
  return halves.map(
    ([alias, half]) => sql`(SELECT max((SELECT max("createdAt") FROM ${sqlTable("RequestVote")}
      WHERE "requestRowId" = ${R}."id")) FROM ${R} WHERE ${halfWhere(half, "open")}) AS ${sqlColumns([alias])}`,
  );
}

/**
 * The newest fired escalation step (ADR 0093) among each half's open requests: a reminder or an
 * added addressee leaves the request open and its rows as they were, yet the inbox shows the
 * step. One seek of `(status, audience, escalatedAt)` or `(ownerId, status, escalatedAt)` each.
 * A step that declines or expires closes the request, which moves the version by itself.
 */
function newestEscalations(halves: VersionHalf[], prefixes: readonly ("r" | "o" | "g")[]): SqlStatement[] {
  return halves.map((half, at) =>
    newest(
      halfWhere(half, "open", sql`AND "escalatedAt" IS NOT NULL`),
      "escalatedAt",
      `${prefixes[at]!}Escalated`,
    ),
  );
}

/** `.<newest escalation of any half, base 36>`, or nothing while none of them has one. */
function escalatedSuffix(row: VersionRow): string {
  const times = (["r", "o", "g", "n"] as const).map((half) => {
    const at = row[`${half}Escalated`];
    return at === undefined || at === null ? 0 : readSqlTime(at).getTime();
  });
  const newestAt = Math.max(...times);
  return newestAt === 0 ? "" : `~${newestAt.toString(36)}`;
}

const STATUSES = { Open: "open", Answered: "answered", Expired: "expired", Cancelled: "cancelled" } as const;
const STATUS_TERMS = {
  open: sql`"status" = 'open'`,
  answered: sql`"status" = 'answered'`,
  expired: sql`"status" = 'expired'`,
  cancelled: sql`"status" = 'cancelled'`,
} as const;

/**
 * One half's rows of one status, as `listInboxRequests` reads that half (the same `InboxHalf`),
 * written owner, status, audience: with the audience as `<>`, SQLite (no statistics) seeks
 * `(ownerId, status)` for the viewer's own half instead of walking `(status, audience)`.
 */
function halfWhere(half: VersionHalf, status: keyof typeof STATUS_TERMS, extra = sql``): SqlStatement {
  const terms: SqlStatement[] = [];
  if (typeof half.ownerId === "string") terms.push(sql`"ownerId" = ${half.ownerId}`);
  terms.push(STATUS_TERMS[status]);
  if (typeof half.audience === "string") terms.push(sql`"audience" = ${half.audience}`);
  else if (half.audience) terms.push(sql`"audience" <> ${half.audience.not}`);
  if (half.memberOf !== undefined)
    terms.push(sql`"audienceGroup" IN (SELECT g."slug" FROM ${sqlTable("ApproverGroup")} g
      JOIN ${sqlTable("ApproverGroupMember")} m ON m."groupId" = g."id" WHERE m."userId" = ${half.memberOf})`);
  if (typeof half.ownerId === "object") terms.push(sql`"ownerId" <> ${half.ownerId.not}`);
  return sql`${sqlJoin(terms, " AND ")} ${extra}`;
}

const R = sqlTable("Request");

function newest(
  where: SqlStatement,
  column: "createdAt" | "takeChangedAt" | "escalatedAt",
  alias: string,
): SqlStatement {
  const c = sqlColumns([column]);
  return sql`(SELECT ${c} FROM ${R} WHERE ${where} ORDER BY ${c} DESC LIMIT 1) AS ${sqlColumns([alias])}`;
}

/**
 * The named half's open count, newest `createdAt` per status and newest vote on its open rows.
 * Its rows are found through `IN` lists, so the newest is an aggregate rather than a seek in
 * order: it reads the few rows a person was added to or covers.
 */
function namedHalfColumns(viewer: InboxQuery["viewer"], now: Date): SqlStatement[] {
  const open = namedHalfSql(viewer, now, "open");
  return [
    sql`(SELECT count(*) FROM ${R} WHERE ${open}) AS "nCount"`,
    ...Object.entries(STATUSES).map(
      ([name, status]) =>
        sql`(SELECT max("createdAt") FROM ${R} WHERE ${namedHalfSql(viewer, now, status)}) AS ${sqlColumns([`n${name}`])}`,
    ),
    sql`(SELECT max((SELECT max("createdAt") FROM ${sqlTable("RequestVote")}
      WHERE "requestRowId" = ${R}."id")) FROM ${R} WHERE ${open}) AS "votedNamed"`,
    sql`(SELECT max("escalatedAt") FROM ${R} WHERE ${open}) AS "nEscalated"`,
  ];
}

/** A half's open count and its newest `createdAt` per status, each one index seek. */
function halfColumns(half: VersionHalf, prefix: "r" | "o" | "g"): SqlStatement[] {
  return [
    sql`(SELECT count(*) FROM ${R} WHERE ${halfWhere(half, "open")}) AS ${sqlColumns([`${prefix}Count`])}`,
    ...Object.entries(STATUSES).map(([name, status]) =>
      newest(halfWhere(half, status), "createdAt", `${prefix}${name}`),
    ),
  ];
}

/** `<open count>.<newest createdAt of any status, base 36>` of one half. */
function halfVersion(row: VersionRow, half: "r" | "o" | "g" | "n"): string {
  const times = (["Open", "Answered", "Expired", "Cancelled"] as const).map((status) => {
    const at = row[`${half}${status}`];
    return at === null ? 0 : readSqlTime(at).getTime();
  });
  return `${Number(row[`${half}Count`])}.${Math.max(0, ...times).toString(36)}`;
}
