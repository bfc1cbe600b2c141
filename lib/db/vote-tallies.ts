import "server-only";
import { answeredByWords } from "@/lib/domain/answer-words";
import type { TallyVote, VoteTally } from "@/lib/domain/vote-tally";
import type { DbClient } from "./db-types";
import { listVotes, type StoredVote } from "./request-votes";

// Each group request's tally from its votes and its group's members, for the pages.

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
    const voted = new Set(cast.map((v) => v.voterId));
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
