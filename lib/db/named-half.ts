import type { RequestState } from "@/lib/domain/events";
import { KNOWN_REQUEST_KINDS, requestKindSpec } from "@/lib/domain/request-kinds";
import type { Actor } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";
import { hotSqlOf, type SqlStatement, sql, sqlColumns, sqlList, sqlTable, sqlTime } from "./sql/hot-sql";

// The inbox's "named" half: the requests a viewer may act on that no other half lists. Those an
// escalation step added them to (ADR 0093), and, while someone away names them to cover (ADR
// 0098), what is addressed to that person by name: their own chats' questions and forms but
// sign-ins, their groups' votes, and approvals a step added them to. The principals are read in
// the statement itself, so the period's end takes effect by itself. The inbox list, its version
// and the waiting count all read this one definition, so they agree on what the half holds.
//
// Each part is read from an index — `(ownerId, status, …)`, `(status, audience, …)`, the steps'
// `(addedUserId)` / `(addedGroup)` — and is empty for someone who covers
// nobody and was added to nothing. With several principals, a request one of them asked for is
// left out even where another is named on it (rare; its link still opens it).

const R = sqlTable("Request");
const STEP = sqlTable("RequestEscalationStep");
const SIGN_IN_KINDS = KNOWN_REQUEST_KINDS.filter((kind) => requestKindSpec(kind).form === "sign-in");

/** The people the viewer covers for at `now` whose requests they may see (a user covers users only). */
function principalsSql(viewer: Actor, now: Date): SqlStatement {
  const at = sqlTime(now);
  const users =
    viewer.role === "user"
      ? sql` AND EXISTS (SELECT 1 FROM ${sqlTable("User")} u WHERE u."id" = a."userId" AND u."role" = 'user')`
      : sql``;
  return sql`SELECT a."userId" FROM ${sqlTable("Absence")} a
    WHERE a."delegateId" = ${viewer.id} AND a."endsAt" > ${at} AND a."startsAt" <= ${at}${users}`;
}

function slugsSql(members: SqlStatement): SqlStatement {
  return sql`SELECT g."slug" FROM ${sqlTable("ApproverGroup")} g
    JOIN ${sqlTable("ApproverGroupMember")} m ON m."groupId" = g."id" WHERE m."userId" ${members}`;
}

/**
 * The half's rows of one status, as a condition on `Request`. Left out: the viewer's own (their
 * own half), a principal's own but for the owner's questions (four eyes: nobody approves for
 * the asker), and what the viewer's other halves list: the reviewers' requests for a reviewer or
 * admin, the viewer's groups' (an admin's: every group's).
 */
export function namedHalfSql(viewer: Actor, now: Date, status: RequestState): SqlStatement {
  const principals = principalsSql(viewer, now);
  const mine = sql`= ${viewer.id}`;
  const theirs = sql`IN (${principals})`;
  const signIns = SIGN_IN_KINDS.length > 0 ? sql` AND "kind" NOT IN (${sqlList(SIGN_IN_KINDS)})` : sql``;
  const added = (column: "addedUserId", match: SqlStatement) =>
    sql`SELECT "requestRowId" FROM ${STEP} WHERE ${sqlColumns([column])} ${match} AND "firedAt" IS NOT NULL`;
  // Joins from the members' index rather than `IN` lists of slugs, which PostgreSQL would sort.
  const memberships = sql`${sqlTable("ApproverGroupMember")} m JOIN ${sqlTable("ApproverGroup")} g ON g."id" = m."groupId"`;
  const parts = sql`SELECT "id" FROM ${R} WHERE "ownerId" ${theirs} AND "status" = ${status} AND "audience" = 'owner'${signIns}
    UNION ALL SELECT q."id" FROM ${memberships} JOIN ${R} q ON q."audienceGroup" = g."slug"
      AND q."status" = ${status} AND q."audience" = 'group' WHERE m."userId" ${theirs}
    UNION ALL ${added("addedUserId", mine)}
    UNION ALL ${added("addedUserId", theirs)}
    UNION ALL SELECT s."requestRowId" FROM ${memberships} JOIN ${STEP} s ON s."addedGroup" = g."slug"
      AND s."firedAt" IS NOT NULL WHERE m."userId" ${mine}
    UNION ALL SELECT s."requestRowId" FROM ${memberships} JOIN ${STEP} s ON s."addedGroup" = g."slug"
      AND s."firedAt" IS NOT NULL WHERE m."userId" ${theirs}`;
  const seen =
    viewer.role === "admin"
      ? sql`"audience" = 'owner'`
      : sql`("audience" = 'owner' OR ("audience" = 'group' AND "audienceGroup" NOT IN (${slugsSql(mine)}))${
          viewer.role === "user" ? sql` OR "audience" = 'reviewers'` : sql``
        })`;
  return sql`"status" = ${status} AND "id" IN (${parts}) AND "ownerId" <> ${viewer.id}
    AND ("audience" = 'owner' OR "ownerId" NOT IN (${principals})) AND ${seen}`;
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
