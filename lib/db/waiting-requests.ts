import "server-only";
import type { Actor } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";
import { adminsNamedGroupVotesSql, namedHalfSql, viewersVoteInSql } from "./named-half";
import { hotSqlOf, sql, sqlTable } from "./sql/hot-sql";

/**
 * How many open requests wait for `viewer` to answer: their own that only they may answer; for
 * reviewers (and admins) every one addressed to the reviewers; the votes of the approver groups
 * they are a member of on requests others asked for and they have cast no vote on yet (never their
 * own: four eyes, as the engine refuses the asker's vote, and the inbox lists their own under
 * their own half, not as a vote);
 * and those of the inbox's named half (named-half.ts): what a ladder added them to, and what is
 * addressed to someone away they cover for, until the vote they would cast there (as themselves,
 * or for that person) is in; for an admin, whose half leaves group requests out, likewise those
 * of groups they are not in that the half would name them on. Each count is read from an index
 * the inbox already keeps: `(ownerId, status, …)`, `(status, audience, …)`, the members'
 * `(userId)` and the votes' `(requestRowId, voterId)` and `(requestRowId, castById)`.
 */
export async function countWaitingRequestsByViewer({
  db,
  viewer,
}: {
  db: DbClient;
  viewer: Actor;
}): Promise<number> {
  // Every open page's nav reads it on connect and after each notice that may move it: one hot
  // statement (ADR 0045) rather than a typed query per count. "Neither the reviewers' nor a
  // group's" is "the owner's" (the three audiences there are) said so that SQLite, which keeps
  // no statistics, seeks the viewer's own rows by `(ownerId, status, …)` instead of walking
  // every open request addressed to its owner by `(status, audience, …)` (pinned in the test).
  const R = sqlTable("Request");
  const own = sql`(SELECT count(*) FROM ${R}
    WHERE "ownerId" = ${viewer.id} AND "status" = 'open' AND "audience" NOT IN ('reviewers', 'group'))`;
  // An admin sees every group's requests, but votes only on those of groups they are in; and
  // each member votes once, so one they voted on waits for the others only. A member also casts
  // once per request (cast-vote.ts): one who voted there for someone they covered before they
  // joined has no vote of their own left. Each probe seeks one of the votes' unique indexes.
  const V = sqlTable("RequestVote");
  const groups = sql`(SELECT count(*) FROM ${R} q WHERE q."status" = 'open' AND q."audience" = 'group'
    AND q."audienceGroup" IN (SELECT g."slug" FROM ${sqlTable("ApproverGroup")} g
      JOIN ${sqlTable("ApproverGroupMember")} m ON m."groupId" = g."id" WHERE m."userId" = ${viewer.id})
    AND q."ownerId" <> ${viewer.id}
    AND NOT EXISTS (SELECT 1 FROM ${V} v WHERE v."requestRowId" = q."id" AND v."voterId" = ${viewer.id})
    AND NOT EXISTS (SELECT 1 FROM ${V} v WHERE v."requestRowId" = q."id" AND v."castById" = ${viewer.id}))`;
  // The named half's requests wait for the viewer until the vote they would cast is in.
  const now = new Date();
  const named = sql`(SELECT count(*) FROM ${R} q WHERE ${namedHalfSql(viewer, now, "open")}
    AND NOT ${viewersVoteInSql(viewer, now)})`;
  // An admin's named half leaves out group requests (their inbox lists every group's), so the
  // votes it names them on in groups they are not in are counted apart, once each.
  const adminsNamed =
    viewer.role === "admin"
      ? sql` + (SELECT count(*) FROM ${R} q WHERE ${adminsNamedGroupVotesSql(viewer, now)}
    AND NOT ${viewersVoteInSql(viewer, now)})`
      : sql``;
  const reviewers =
    viewer.role === "user"
      ? sql``
      : sql` + (SELECT count(*) FROM ${R} WHERE "status" = 'open' AND "audience" = 'reviewers')`;
  const [row] = await hotSqlOf(db).query<{ n: unknown }>(
    sql`SELECT ${own} + ${groups}${reviewers} + ${named}${adminsNamed} AS "n"`,
  );
  return Number(row!.n);
}
