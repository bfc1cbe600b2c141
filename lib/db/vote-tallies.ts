import "server-only";
import { answeredByWords } from "@/lib/domain/answer-words";
import type { TallyVote, VoteTally } from "@/lib/domain/vote-tally";
import type { DbClient } from "./db-types";
import type { VoteStatus } from "./request-votes";

// The votes on group requests as the pages and the API show them: each vote, and each request's
// tally from its votes and its group's members. They are cast and counted in request-votes.ts.

export interface StoredVote {
  voterId: string;
  /** Who cast it: the voter, or whoever covered for them. */
  castById: string;
  email: string;
  name: string | null;
  /** Who cast it for the voter, when someone covered for them (ADR 0098): their name or email. */
  castByName?: string;
  ok: boolean;
  note?: string;
  status: VoteStatus;
  argsHash: string | null;
  createdAt: string;
}

/** Every vote on these requests, oldest first, keyed by request row id. */
export async function listVotes({
  db,
  requestRowIds,
}: {
  db: DbClient;
  requestRowIds: string[];
}): Promise<Map<string, StoredVote[]>> {
  const out = new Map<string, StoredVote[]>();
  if (requestRowIds.length === 0) return out;
  const rows = await db.requestVote.findMany({
    where: { requestRowId: { in: requestRowIds } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      requestRowId: true,
      voterId: true,
      ok: true,
      note: true,
      status: true,
      argsHash: true,
      createdAt: true,
      castById: true,
      voter: { select: { email: true, name: true } },
    },
  });
  const casters = [
    ...new Set(rows.flatMap((r) => (r.castById && r.castById !== r.voterId ? [r.castById] : []))),
  ];
  const casterNames = new Map(
    casters.length === 0
      ? []
      : (
          await db.user.findMany({
            where: { id: { in: casters } },
            select: { id: true, name: true, email: true },
          })
        ).map((u) => [u.id, u.name ?? u.email ?? u.id]),
  );
  for (const row of rows) {
    const list = out.get(row.requestRowId) ?? [];
    const castByName =
      row.castById && row.castById !== row.voterId ? casterNames.get(row.castById) : undefined;
    list.push({
      voterId: row.voterId,
      castById: row.castById ?? row.voterId,
      email: row.voter.email ?? row.voterId,
      name: row.voter.name,
      ...(castByName ? { castByName } : {}),
      ok: row.ok,
      ...(row.note ? { note: row.note } : {}),
      status: row.status as VoteStatus,
      argsHash: row.argsHash,
      createdAt: row.createdAt.toISOString(),
    });
    out.set(row.requestRowId, list);
  }
  return out;
}

interface TalliedRequest {
  id: string;
  ownerId: string;
  audienceGroup: string | null;
  required: number;
}

const nameOf = (user: { name: string | null; email: string | null }) => user.name ?? user.email ?? "someone";

/** "Rita", or "Sam for Rita" for a vote Sam cast while covering for Rita (ADR 0098). */
const nameOfVote = (vote: StoredVote) =>
  answeredByWords(
    vote.castByName ?? vote.name ?? vote.email,
    vote.castByName ? (vote.name ?? vote.email) : null,
  );

/** The tallies of these requests (those addressed to a group), keyed by request row id. */
export async function listVoteTallies({
  db,
  requests,
}: {
  db: DbClient;
  requests: TalliedRequest[];
}): Promise<Map<string, VoteTally>> {
  const grouped = requests.filter((r) => r.audienceGroup !== null);
  const out = new Map<string, VoteTally>();
  if (grouped.length === 0) return out;
  const slugs = [...new Set(grouped.map((r) => r.audienceGroup!))];
  const [votes, groups] = await Promise.all([
    listVotes({ db, requestRowIds: grouped.map((r) => r.id) }),
    db.approverGroup.findMany({
      where: { slug: { in: slugs } },
      select: {
        slug: true,
        members: { select: { userId: true, user: { select: { name: true, email: true } } } },
      },
    }),
  ]);
  const membersOf = new Map(groups.map((g) => [g.slug, g.members]));
  for (const request of grouped) {
    const cast = votes.get(request.id) ?? [];
    const as = (status: string, ok?: boolean): TallyVote[] =>
      cast
        .filter((v) => v.status === status && (ok === undefined || v.ok === ok))
        .map((v) => ({ name: nameOfVote(v), at: v.createdAt }));
    const decline = cast.find((v) => v.status === "counted" && !v.ok);
    // Each person casts once per request: a member who voted for someone they covered before
    // they joined has no vote left either, as the engine refuses a second (cast-vote.ts).
    const voted = new Set(cast.flatMap((v) => [v.voterId, v.castById]));
    out.set(request.id, {
      group: request.audienceGroup!,
      required: request.required,
      approvals: as("counted", true),
      declined: decline
        ? {
            name: nameOfVote(decline),
            at: decline.createdAt,
            ...(decline.note ? { reason: decline.note } : {}),
          }
        : null,
      stillToVote: (membersOf.get(request.audienceGroup!) ?? [])
        .filter((m) => m.userId !== request.ownerId && !voted.has(m.userId))
        .map((m) => nameOf(m.user)),
      voided: as("void"),
      late: as("late"),
    });
  }
  return out;
}
