import "server-only";
import type { DbClient } from "./db-types";

// Who cast which vote, for the refusal of a second one (ADR 0098): a person's vote may have been
// cast by the one covering for them while they were away.

/** The votes that are this voter's or were cast by this person: what refuses a second one. */
export async function listVotesOfEither({
  db,
  requestRowId,
  voterId,
  castById,
}: {
  db: DbClient;
  requestRowId: string;
  voterId: string;
  castById: string;
}): Promise<{ voterId: string; castById: string; voterEmail: string; castByEmail: string }[]> {
  const rows = await db.requestVote.findMany({
    where: { requestRowId, OR: [{ voterId }, { castById }] },
    select: { voterId: true, castById: true, voter: { select: { email: true } } },
  });
  const casters = rows.map((row) => row.castById ?? row.voterId);
  const people = await db.user.findMany({
    where: { id: { in: casters } },
    select: { id: true, email: true },
  });
  const emailOf = new Map(people.map((p) => [p.id, p.email ?? p.id]));
  return rows.map((row) => {
    const castById = row.castById ?? row.voterId;
    return {
      voterId: row.voterId,
      castById,
      voterEmail: row.voter.email ?? row.voterId,
      castByEmail: emailOf.get(castById) ?? castById,
    };
  });
}
