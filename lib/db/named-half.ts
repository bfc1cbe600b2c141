import type { RequestState } from "@/lib/domain/events";
import { KNOWN_REQUEST_KINDS, requestKindSpec } from "@/lib/domain/request-kinds";
import type { Actor } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";
import { hotSqlOf, type SqlStatement, sql, sqlList, sqlTable, sqlTime } from "./sql/hot-sql";

// The inbox's "named" half: the requests a viewer may act on that no other half lists. Those an
// escalation step added them to (ADR 0093), and, while someone away names them to cover (ADR
// 0098), what is addressed to that person by name: their own chats' questions and forms but
// sign-ins, their groups' votes, and approvals a step added them to. The principals are read in
// the statement itself, so the period's end takes effect by itself. The inbox list, its version
// and the waiting count all read this one definition, so they agree on what the half holds.
//
// It holds exactly what the engine lets the viewer act on beyond their other halves
// (lib/engine/covering.ts, ladder-addressees.ts): for a request a principal asked for, only where
// another principal is named on it, whom the delegate then acts for (four eyes: never the asker);
// a person a step added by email, as whoever has the account with it now (one made after the
// ladder was copied included).
// Each part is read from an index — `(ownerId, status, …)`, `(status, audience, …)`, the steps'
// `(addedEmail)` / `(addedGroup)` — and is empty for someone who covers nobody and was added to
// nothing.

const R = sqlTable("Request");
const STEP = sqlTable("RequestEscalationStep");
const SIGN_IN_KINDS = KNOWN_REQUEST_KINDS.filter((kind) => requestKindSpec(kind).form === "sign-in");

/** The absences `a` by which the viewer covers for someone at `now` (a user covers users only). */
function coverSql(viewer: Actor, now: Date): SqlStatement {
  const at = sqlTime(now);
  const users =
    viewer.role === "user"
      ? sql` AND EXISTS (SELECT 1 FROM ${sqlTable("User")} u WHERE u."id" = a."userId" AND u."role" = 'user')`
      : sql``;
  return sql`FROM ${sqlTable("Absence")} a
    WHERE a."delegateId" = ${viewer.id} AND a."endsAt" > ${at} AND a."startsAt" <= ${at}${users}`;
}

/** The people the viewer covers for at `now` whose requests they may see. */
function principalsSql(viewer: Actor, now: Date): SqlStatement {
  return sql`SELECT a."userId" ${coverSql(viewer, now)}`;
}

/** Whether a fired step of request `q` added `person`: by their account's email, or a group of theirs. */
function addedSql(person: SqlStatement): SqlStatement {
  return sql`(EXISTS (SELECT 1 FROM ${STEP} s JOIN ${sqlTable("User")} u ON u."email" = s."addedEmail"
      WHERE s."requestRowId" = q."id" AND s."firedAt" IS NOT NULL AND u."id" = ${person})
    OR EXISTS (SELECT 1 FROM ${STEP} s JOIN ${sqlTable("ApproverGroup")} g ON g."slug" = s."addedGroup"
      JOIN ${sqlTable("ApproverGroupMember")} m ON m."groupId" = g."id"
      WHERE s."requestRowId" = q."id" AND s."firedAt" IS NOT NULL AND m."userId" = ${person}))`;
}

/**
 * Whether the vote on request `q` that the viewer would cast is in: each person votes once, and
 * the viewer votes as whom the engine picks (cast-vote.ts, covering.ts): as themselves when a
 * step added them, else for the first person they cover for now whom it names and who did not
 * ask for it. A vote the viewer cast for anyone counts too: a caster casts once per request.
 */
export function viewersVoteInSql(viewer: Actor, now: Date): SqlStatement {
  const member = sql`EXISTS (SELECT 1 FROM ${sqlTable("ApproverGroupMember")} m
    JOIN ${sqlTable("ApproverGroup")} g ON g."id" = m."groupId"
    WHERE m."userId" = a."userId" AND g."slug" = q."audienceGroup")`;
  const names = sql`q."ownerId" <> a."userId" AND ((q."audience" = 'group' AND ${member}) OR ${addedSql(sql`a."userId"`)})`;
  const principal = sql`(SELECT a."userId" ${coverSql(viewer, now)} AND ${names}
    ORDER BY a."startsAt", a."id" LIMIT 1)`;
  return sql`EXISTS (SELECT 1 FROM ${sqlTable("RequestVote")} v WHERE v."requestRowId" = q."id"
    AND (v."castById" = ${viewer.id} OR v."voterId" = ${viewer.id}
      OR (NOT ${addedSql(sql`${viewer.id}`)} AND v."voterId" = ${principal})))`;
}

function slugsSql(members: SqlStatement): SqlStatement {
  return sql`SELECT g."slug" FROM ${sqlTable("ApproverGroup")} g
    JOIN ${sqlTable("ApproverGroupMember")} m ON m."groupId" = g."id" WHERE m."userId" ${members}`;
}

/**
 * The half's rows of one status, as a condition on `Request`. Left out: the viewer's own (their
 * own half; four eyes for the rest), and what the viewer's other halves list: the reviewers'
 * requests for a reviewer or admin, the viewer's groups' (an admin's: every group's).
 */
export function namedHalfSql(viewer: Actor, now: Date, status: RequestState): SqlStatement {
  const seen =
    viewer.role === "admin"
      ? sql`"audience" = 'owner'`
      : sql`("audience" = 'owner' OR ("audience" = 'group' AND "audienceGroup" NOT IN (${slugsSql(sql`= ${viewer.id}`)}))${
          viewer.role === "user" ? sql` OR "audience" = 'reviewers'` : sql``
        })`;
  return sql`"status" = ${status} AND "id" IN (${partsSql(viewer, now, status)}) AND "ownerId" <> ${viewer.id} AND ${seen}`;
}

/**
 * An admin's open requests of groups they are not in on which the half's parts name them (for a
 * member they cover, or as a ladder's addition). Their inbox lists these among every group's, so
 * the half leaves them out; but they vote there only so, and the waiting count reads them here.
 */
export function adminsNamedGroupVotesSql(admin: Actor, now: Date): SqlStatement {
  return sql`"status" = 'open' AND "audience" = 'group' AND "id" IN (${partsSql(admin, now, "open")})
    AND "ownerId" <> ${admin.id} AND "audienceGroup" NOT IN (${slugsSql(sql`= ${admin.id}`)})`;
}

/** The ids of the requests of one status that the half's parts name the viewer on, their own included. */
function partsSql(viewer: Actor, now: Date, status: RequestState): SqlStatement {
  const principals = principalsSql(viewer, now);
  const mine = sql`= ${viewer.id}`;
  const theirs = sql`IN (${principals})`;
  const signIns = SIGN_IN_KINDS.length > 0 ? sql` AND "kind" NOT IN (${sqlList(SIGN_IN_KINDS)})` : sql``;
  // Joins from the members' index rather than `IN` lists of slugs, which PostgreSQL would sort.
  const memberships = sql`${sqlTable("ApproverGroupMember")} m JOIN ${sqlTable("ApproverGroup")} g ON g."id" = m."groupId"`;
  // A ladder adds a person by email: whoever has the account with it now, as the engine reads it.
  const people = sql`${sqlTable("User")} u`;
  // A principal named on a request they asked for is no reason to list it (four eyes: nobody
  // acts for the asker), but another principal named on it is, as the engine picks.
  return sql`SELECT "id" FROM ${R} WHERE "ownerId" ${theirs} AND "status" = ${status} AND "audience" = 'owner'${signIns}
    UNION ALL SELECT q."id" FROM ${memberships} JOIN ${R} q ON q."audienceGroup" = g."slug"
      AND q."status" = ${status} AND q."audience" = 'group' AND q."ownerId" <> m."userId" WHERE m."userId" ${theirs}
    UNION ALL SELECT s."requestRowId" FROM ${people} JOIN ${STEP} s ON s."addedEmail" = u."email"
      AND s."firedAt" IS NOT NULL WHERE u."id" ${mine}
    UNION ALL SELECT s."requestRowId" FROM ${people} JOIN ${STEP} s ON s."addedEmail" = u."email"
      AND s."firedAt" IS NOT NULL JOIN ${R} q ON q."id" = s."requestRowId" AND q."ownerId" <> u."id"
      WHERE u."id" ${theirs}
    UNION ALL SELECT s."requestRowId" FROM ${memberships} JOIN ${STEP} s ON s."addedGroup" = g."slug"
      AND s."firedAt" IS NOT NULL WHERE m."userId" ${mine}
    UNION ALL SELECT s."requestRowId" FROM ${memberships} JOIN ${STEP} s ON s."addedGroup" = g."slug"
      AND s."firedAt" IS NOT NULL JOIN ${R} q ON q."id" = s."requestRowId" AND q."ownerId" <> m."userId"
      WHERE m."userId" ${theirs}`;
}

/** The ids of the half's rows of one status (few: what one person was added to or covers). */
export async function listNamedHalfIds({
  db,
  viewer,
  status,
  now = new Date(),
}: {
  db: DbClient;
  viewer: Actor;
  status: RequestState;
  now?: Date;
}): Promise<string[]> {
  const rows = await hotSqlOf(db).query<{ id: string }>(
    sql`SELECT "id" FROM ${R} WHERE ${namedHalfSql(viewer, now, status)}`,
  );
  return rows.map((row) => row.id);
}
