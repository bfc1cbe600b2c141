import "server-only";
import { type AbsencePeriod, type AbsenceView, absenceIssues, isRunning } from "@/lib/domain/absence";
import { parseRole, type Role } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";
import { recordAuditEntry } from "./audit";
import type { DbClient, DbTx } from "./db-types";
import { lockUntilTransactionEnds } from "./sql/advisory-lock";
import { engineTransaction } from "./sql/transaction-options";

// Absences and who covers them (ADR 0098). Setting one checks it against every absence it could
// collide with inside one transaction, serialized with every other setting of one, so two
// people naming each other at once cannot both succeed. Each change writes its audit entry in
// the same transaction.

const VIEW = {
  id: true,
  userId: true,
  delegateId: true,
  startsAt: true,
  endsAt: true,
  createdById: true,
  user: { select: { email: true } },
  delegate: { select: { email: true, name: true } },
} as const;

type ViewRow = {
  id: string;
  userId: string;
  delegateId: string;
  startsAt: Date;
  endsAt: Date;
  createdById: string;
  user: { email: string | null };
  delegate: { email: string | null; name: string | null };
};

function toView(row: ViewRow): AbsenceView {
  return {
    id: row.id,
    userId: row.userId,
    userEmail: row.user.email ?? row.userId,
    delegateId: row.delegateId,
    delegateEmail: row.delegate.email ?? row.delegateId,
    delegateName: row.delegate.name,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    createdById: row.createdById,
  };
}

/** A person's absences that have not ended, soonest first. */
export async function listAbsencesOfUser({
  db,
  userId,
  now,
}: {
  db: DbClient;
  userId: string;
  now: Date;
}): Promise<AbsenceView[]> {
  const rows = await db.absence.findMany({
    where: { userId, endsAt: { gt: now } },
    orderBy: [{ startsAt: "asc" }, { id: "asc" }],
    select: VIEW,
  });
  return rows.map(toView);
}

/** Everyone's absences that have not ended, for the admins' page, soonest first. */
export async function listCurrentAbsences({ db, now }: { db: DbClient; now: Date }): Promise<AbsenceView[]> {
  const rows = await db.absence.findMany({
    where: { endsAt: { gt: now } },
    orderBy: [{ startsAt: "asc" }, { id: "asc" }],
    select: VIEW,
  });
  return rows.map(toView);
}

/** The people a delegate covers for at `now`: whose absences running now name them. */
export async function listCoveredPeople({
  db,
  delegateId,
  now,
}: {
  db: DbClient;
  delegateId: string;
  now: Date;
}): Promise<{ userId: string; email: string; name: string | null; role: Role; endsAt: Date }[]> {
  const rows = await db.absence.findMany({
    where: { delegateId, endsAt: { gt: now }, startsAt: { lte: now } },
    orderBy: [{ startsAt: "asc" }, { id: "asc" }],
    select: { userId: true, endsAt: true, user: { select: { email: true, name: true, role: true } } },
  });
  return rows.map((row) => ({
    userId: row.userId,
    email: row.user.email ?? row.userId,
    name: row.user.name,
    role: parseRole(row.user.role),
    endsAt: row.endsAt,
  }));
}

/** Who covers for a person at `now`, or null when they are not away. */
export async function getCoverOf({
  db,
  userId,
  now,
}: {
  db: DbClient;
  userId: string;
  now: Date;
}): Promise<{ delegateId: string; endsAt: Date } | null> {
  return db.absence.findFirst({
    where: { userId, endsAt: { gt: now }, startsAt: { lte: now } },
    orderBy: [{ startsAt: "asc" }, { id: "asc" }],
    select: { delegateId: true, endsAt: true },
  });
}

async function roleOf(tx: DbTx, userId: string): Promise<Role | null> {
  const row = await tx.user.findUnique({ where: { id: userId }, select: { role: true } });
  return row ? parseRole(row.role) : null;
}

/**
 * Sets an absence, or refuses it with `bad_request:input` naming each field at fault (see
 * `absenceIssues`). `delegateEmail` is as typed; `actorId` is who set it (the person, or an admin).
 */
export async function setAbsence({
  db,
  userId,
  delegateEmail,
  startsAt,
  endsAt,
  actorId,
  now,
}: {
  db: DbClient;
  userId: string;
  delegateEmail: string;
  startsAt: Date;
  endsAt: Date;
  actorId: string;
  now: Date;
}): Promise<AbsenceView> {
  return db.$transaction(async (tx) => {
    await lockUntilTransactionEnds(tx, "absences");
    const personRole = await roleOf(tx, userId);
    if (!personRole) throw new AppError("not_found:user");
    const delegateRow = await tx.user.findUnique({
      where: { email: delegateEmail.trim().toLowerCase() },
      select: { id: true, email: true, role: true },
    });
    const next: AbsencePeriod = { userId, delegateId: delegateRow?.id ?? "", startsAt, endsAt };
    // A loop must overlap the new absence, so only absences that do are read.
    const existing = await tx.absence.findMany({
      where: { endsAt: { gt: startsAt }, startsAt: { lt: endsAt } },
      select: { id: true, userId: true, delegateId: true, startsAt: true, endsAt: true },
    });
    const issues = absenceIssues({
      next,
      now,
      existing,
      personRole,
      delegate: delegateRow
        ? { email: delegateRow.email ?? delegateEmail, role: parseRole(delegateRow.role) }
        : null,
    });
    if (issues.length > 0) {
      throw new AppError("bad_request:input", { message: issues.map((i) => i.message).join("; "), issues });
    }
    const row = await tx.absence.create({ data: { ...next, createdById: actorId }, select: VIEW });
    await recordAuditEntry({
      tx,
      actorId,
      action: "absence.set",
      targetType: "user",
      targetId: userId,
      detail: { delegateId: next.delegateId, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
    });
    return toView(row);
  }, engineTransaction);
}

/**
 * Ends an absence now: one that has not begun is removed, one running ends at `now`. `userId`:
 * whose it must be (a person ends only their own; an admin passes none). False when there is no
 * such absence still to end.
 */
export async function endAbsence({
  db,
  id,
  userId,
  actorId,
  now,
}: {
  db: DbClient;
  id: string;
  userId?: string;
  actorId: string;
  now: Date;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const row = await tx.absence.findUnique({ where: { id } });
    if (!row || (userId !== undefined && row.userId !== userId) || row.endsAt <= now) return false;
    if (isRunning(row, now)) await tx.absence.update({ where: { id }, data: { endsAt: now } });
    else await tx.absence.delete({ where: { id } });
    await recordAuditEntry({
      tx,
      actorId,
      action: "absence.ended",
      targetType: "user",
      targetId: row.userId,
      detail: {
        delegateId: row.delegateId,
        startsAt: row.startsAt.toISOString(),
        endsAt: row.endsAt.toISOString(),
      },
    });
    return true;
  }, engineTransaction);
}
