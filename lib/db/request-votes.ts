import "server-only";
import type { Request } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { toJson } from "./json";
import { markPropertyOrder, restorePropertyOrder } from "./property-order";
import { isUniqueViolation } from "./sql/unique-violation";

// The votes on a request addressed to an approver group (ADR 0076), as they are cast and counted.
// Storage only: the engine (lib/engine/cast-vote.ts) decides whether a vote settles the request,
// and the answer it makes goes through the one answer path (resolve-request.ts) like every other.
// The pages and the API read them through vote-tallies.ts.

/** "counted" while it may count; "void" once the arguments changed after it; "late" when cast after the request was settled. */
export type VoteStatus = "counted" | "void" | "late";

export interface NewVote {
  requestRowId: string;
  voterId: string;
  /** Who cast it: the voter, or the person covering for them while they are away (ADR 0098). */
  castById: string;
  ok: boolean;
  note?: string;
  /** For an approval, the arguments it approved; null for a decline. */
  arguments: Record<string, unknown> | null;
  argsHash: string | null;
  /** "late" for a vote that arrived after the request was settled; "counted" by default. */
  status?: Extract<VoteStatus, "counted" | "late">;
}

/**
 * Records one vote and its audit entry together. The unique `(requestRowId, voterId)` and
 * `(requestRowId, castById)` are what refuse a second vote, however the two race: "second"
 * then, and nothing is written. The audit names who cast it, and `for` whom when not themselves.
 */
export async function recordVote({
  db,
  vote,
}: {
  db: DbClient;
  vote: NewVote;
}): Promise<{ status: "recorded" } | { status: "second" }> {
  try {
    await db.$transaction([
      db.requestVote.create({
        data: {
          requestRowId: vote.requestRowId,
          voterId: vote.voterId,
          castById: vote.castById,
          ok: vote.ok,
          note: vote.note ?? null,
          ...(vote.arguments ? { arguments: toJson(vote.arguments) } : {}),
          argsHash: vote.argsHash,
          status: vote.status ?? "counted",
        },
      }),
      db.auditLog.create({
        data: {
          actorId: vote.castById,
          action: "request.voted",
          targetType: "request",
          targetId: vote.requestRowId,
          detail: toJson({
            ok: vote.ok,
            ...(vote.note ? { note: vote.note } : {}),
            ...(vote.status === "late" ? { late: true } : {}),
            ...(vote.castById !== vote.voterId ? { for: vote.voterId } : {}),
          }),
        },
      }),
    ]);
    return { status: "recorded" };
  } catch (error) {
    if (isUniqueViolation(error)) return { status: "second" };
    throw error;
  }
}

/** The counted approvals of exactly these arguments, oldest first. */
export async function listCountedApprovals({
  db,
  requestRowId,
  argsHash,
}: {
  db: DbClient;
  requestRowId: string;
  argsHash: string | null;
}): Promise<{ voterId: string; email: string; note: string | null }[]> {
  const rows = await db.requestVote.findMany({
    where: { requestRowId, ok: true, status: "counted", argsHash },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { voterId: true, note: true, voter: { select: { email: true } } },
  });
  return rows.map((row) => ({ voterId: row.voterId, email: row.voter.email ?? row.voterId, note: row.note }));
}

/** A vote that arrived after the request was settled: kept, and marked too late (with an audit entry). */
export async function markVoteLate({
  db,
  requestRowId,
  voterId,
}: {
  db: DbClient;
  requestRowId: string;
  voterId: string;
}): Promise<void> {
  await db.$transaction([
    db.requestVote.updateMany({ where: { requestRowId, voterId }, data: { status: "late" } }),
    db.auditLog.create({
      data: { actorId: voterId, action: "request.vote_late", targetType: "request", targetId: requestRowId },
    }),
  ]);
}

/**
 * A vote edited the arguments: the open request now carries them (in its payload's
 * `data.arguments` and the form's pre-filled `data.values.arguments`), and every counted
 * approval of other arguments stops counting. Returns who was voided, so they can be told;
 * nothing changes once the request has left "open".
 */
export async function carryEditedArguments({
  db,
  requestRowId,
  actorId,
  args,
  argsHash,
}: {
  db: DbClient;
  requestRowId: string;
  actorId: string;
  args: Record<string, unknown>;
  argsHash: string;
}): Promise<string[]> {
  const row = await db.request.findUnique({
    where: { id: requestRowId },
    select: { payload: true, status: true },
  });
  if (row?.status !== "open") return [];
  const payload = restorePropertyOrder(row.payload as unknown as Request);
  const data = payload.data ?? {};
  const values = typeof data.values === "object" && data.values !== null ? data.values : {};
  const edited: Request = {
    ...payload,
    data: { ...data, arguments: args, values: { ...values, arguments: args } },
  };
  const voided = await db.requestVote.findMany({
    where: { requestRowId, ok: true, status: "counted", NOT: { argsHash } },
    select: { voterId: true },
  });
  const voters = voided.map((v) => v.voterId);
  const now = new Date();
  await db.$transaction([
    db.request.updateMany({
      where: { id: requestRowId, status: "open" },
      data: { payload: toJson(markPropertyOrder(edited)) },
    }),
    db.requestVote.updateMany({
      where: { requestRowId, ok: true, status: "counted", voterId: { in: voters } },
      data: { status: "void", voidedAt: now },
    }),
    ...voters.map((voterId) =>
      db.auditLog.create({
        data: {
          actorId,
          action: "request.vote_voided",
          targetType: "request",
          targetId: requestRowId,
          detail: toJson({ voterId, why: "the arguments were edited after this approval" }),
        },
      }),
    ),
  ]);
  return voters;
}

/**
 * Whether this person's vote is in already (each votes once), or, given `castById`, whether that
 * person has cast one (for themselves or for someone they cover, ADR 0098).
 */
export async function hasVoted({
  db,
  requestRowId,
  voterId,
  castById,
}: {
  db: DbClient;
  requestRowId: string;
  voterId: string;
  castById?: string;
}): Promise<boolean> {
  const who = castById ? { OR: [{ voterId }, { castById }] } : { voterId };
  return (await db.requestVote.count({ where: { requestRowId, ...who } })) > 0;
}
