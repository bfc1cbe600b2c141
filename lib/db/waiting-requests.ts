import "server-only";
import type { Actor } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";
import { namedHalfSql } from "./named-half";
import { hotSqlOf, sql, sqlTable } from "./sql/hot-sql";

/**
 * How many open requests wait for `viewer` to answer: their own that only they may answer,
 * and for reviewers (and admins) every one addressed to the reviewers. Two counts, each read
 * from an index the inbox already keeps: `(status, audience, …)` and `(ownerId, status, …)`;
 * and those of the inbox's named half (named-half.ts): what a ladder added them to, and what is
 * addressed to someone away they cover for.
 */
export async function countWaitingRequestsByViewer({
  db,
  viewer,
}: {
  db: DbClient;
  viewer: Actor;
}): Promise<number> {
  // Every open page's nav reads it on connect and after each notice that may move it: one hot
  // statement (ADR 0045) rather than a typed query per count. "Not the reviewers'" is "the
  // owner's" (the two audiences there are) said so that SQLite, which keeps no statistics, seeks
  // the viewer's own rows by `(ownerId, status, …)` instead of walking every open request
  // addressed to its owner by `(status, audience, …)` (pinned in the test).
  const R = sqlTable("Request");
  const named = sql`(SELECT count(*) FROM ${R} WHERE ${namedHalfSql(viewer, new Date(), "open")})`;
  const [row] =
    viewer.role === "user"
      ? await hotSqlOf(db).query<{ n: unknown }>(sql`
          SELECT (SELECT count(*) FROM ${R}
            WHERE "ownerId" = ${viewer.id} AND "status" = 'open' AND "audience" <> 'reviewers') + ${named} AS "n"`)
      : await hotSqlOf(db).query<{ n: unknown }>(sql`
          SELECT (SELECT count(*) FROM ${R}
              WHERE "ownerId" = ${viewer.id} AND "status" = 'open' AND "audience" <> 'reviewers')
            + (SELECT count(*) FROM ${R} WHERE "status" = 'open' AND "audience" = 'reviewers') + ${named} AS "n"`);
  return Number(row!.n);
}
