import "server-only";
import type { DbClient } from "./db-types";
import { isUniqueViolation } from "./sql/unique-violation";

// A decision held for a few seconds before it is committed (ADR 0080). The row is all there is
// of it: the request stays open and nothing else is written until a committer claims the row
// and answers through the one answer path. Claiming (`claimedAt`) and undoing are each one
// conditional statement, so an Undo and a commit can never both win.

/** An answer as the answer path takes it; checked before it was held and again when it commits. */
export interface HeldAnswer {
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: "declined";
}

export interface HeldDecisionRow {
  id: string;
  requestId: string;
  actorId: string;
  answer: HeldAnswer;
  commitAt: Date;
}

export type HoldOutcome = { status: "held"; id: string } | { status: "held_by_other"; actorId: string };

function toRow(row: {
  id: string;
  requestRowId: string;
  actorId: string;
  answer: unknown;
  commitAt: Date;
}): HeldDecisionRow {
  return {
    id: row.id,
    requestId: row.requestRowId,
    actorId: row.actorId,
    answer: row.answer as HeldAnswer,
    commitAt: row.commitAt,
  };
}

/** Holds `answer` for `requestId` until `commitAt`; one held decision per request at a time. */
export async function insertHeldDecision({
  db,
  requestId,
  actorId,
  answer,
  commitAt,
}: {
  db: DbClient;
  requestId: string;
  actorId: string;
  answer: HeldAnswer;
  commitAt: Date;
}): Promise<HoldOutcome> {
  try {
    const row = await db.heldDecision.create({
      data: { requestRowId: requestId, actorId, answer: answer as object, commitAt },
      select: { id: true },
    });
    return { status: "held", id: row.id };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const other = await db.heldDecision.findUnique({ where: { requestRowId: requestId } });
    // Committed and gone between the two statements: the request is answered; the caller's
    // answer path will say so.
    return { status: "held_by_other", actorId: other?.actorId ?? "" };
  }
}

/** Undoes `actorId`'s own held decision, unless a committer has claimed it; true if undone. */
export async function deleteUnclaimedHeldDecision({
  db,
  id,
  actorId,
}: {
  db: DbClient;
  id: string;
  actorId: string;
}): Promise<HeldDecisionRow | null> {
  const row = await db.heldDecision.findUnique({ where: { id } });
  if (!row || row.actorId !== actorId) return null;
  const deleted = await db.heldDecision.deleteMany({ where: { id, actorId, claimedAt: null } });
  return deleted.count === 1 ? toRow(row) : null;
}

/**
 * Claims a due held decision for committing: one conditional update, so of any number of
 * committers (the reviewer's page, every process's sweep) exactly one gets it. A claim older
 * than `staleBefore` belonged to a committer that died before finishing and may be taken again.
 */
export async function claimDueHeldDecision({
  db,
  id,
  now,
  staleBefore,
}: {
  db: DbClient;
  id: string;
  now: Date;
  staleBefore: Date;
}): Promise<HeldDecisionRow | null> {
  const claimed = await db.heldDecision.updateMany({
    where: { id, commitAt: { lte: now }, OR: [{ claimedAt: null }, { claimedAt: { lt: staleBefore } }] },
    data: { claimedAt: now },
  });
  if (claimed.count !== 1) return null;
  const row = await db.heldDecision.findUnique({ where: { id } });
  return row ? toRow(row) : null;
}

/** The ids of held decisions due by `now` and not being committed by a live committer. */
export async function listDueHeldDecisionIds({
  db,
  now,
  staleBefore,
  limit = 50,
}: {
  db: DbClient;
  now: Date;
  staleBefore: Date;
  limit?: number;
}): Promise<string[]> {
  const rows = await db.heldDecision.findMany({
    where: { commitAt: { lte: now }, OR: [{ claimedAt: null }, { claimedAt: { lt: staleBefore } }] },
    orderBy: { commitAt: "asc" },
    take: limit,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

export async function deleteHeldDecision({ db, id }: { db: DbClient; id: string }): Promise<void> {
  await db.heldDecision.deleteMany({ where: { id } });
}

/** Who has a held decision on each of these requests (request id → actor id). */
export async function listHeldDeciders({
  db,
  requestIds,
}: {
  db: DbClient;
  requestIds: string[];
}): Promise<Map<string, string>> {
  if (requestIds.length === 0) return new Map();
  const rows = await db.heldDecision.findMany({
    where: { requestRowId: { in: requestIds } },
    select: { requestRowId: true, actorId: true },
  });
  return new Map(rows.map((row) => [row.requestRowId, row.actorId]));
}
