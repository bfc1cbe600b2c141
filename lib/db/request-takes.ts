import "server-only";
import type { DbClient } from "./db-types";

// "I'm on it": a reviewer says they are looking at a reviewers' request, so colleagues pick
// another. A take is a hint between people, not a lock: it lapses by itself at `takenUntil`,
// and answering never reads it.

export type TakeOutcome =
  | { status: "taken"; until: Date }
  | { status: "taken_by_other"; takerId: string; until: Date }
  | { status: "closed" }
  | { status: "missing" };

/**
 * Takes (or renews) one open reviewers' request for `takerId` until `until`, in one conditional
 * update: it succeeds only if nobody else holds a take that has not lapsed by `now`. Two
 * reviewers racing for a free request get exactly one take between them.
 */
export async function takeRequestById({
  db,
  id,
  takerId,
  now,
  until,
}: {
  db: DbClient;
  id: string;
  takerId: string;
  now: Date;
  until: Date;
}): Promise<TakeOutcome> {
  const took = await db.request.updateMany({
    where: {
      id,
      status: "open",
      audience: "reviewers",
      OR: [{ takenById: null }, { takenById: takerId }, { takenUntil: { lte: now } }],
    },
    data: { takenById: takerId, takenUntil: until, takeChangedAt: now },
  });
  if (took.count === 1) return { status: "taken", until };
  // Only to say why: the update above already decided.
  const row = await db.request.findUnique({
    where: { id },
    select: { status: true, audience: true, takenById: true, takenUntil: true },
  });
  if (row?.audience !== "reviewers") return { status: "missing" };
  if (row.status !== "open") return { status: "closed" };
  if (row.takenById && row.takenUntil) {
    return { status: "taken_by_other", takerId: row.takenById, until: row.takenUntil };
  }
  return { status: "closed" };
}

/** Gives up `takerId`'s own take of a request; true if there was one to give up. */
export async function releaseRequestById({
  db,
  id,
  takerId,
  now,
}: {
  db: DbClient;
  id: string;
  takerId: string;
  now: Date;
}): Promise<boolean> {
  const released = await db.request.updateMany({
    where: { id, takenById: takerId },
    data: { takenById: null, takenUntil: null, takeChangedAt: now },
  });
  return released.count === 1;
}

/** Who holds an unlapsed take of each of these requests, with their display name. */
export async function listTakesByRequestIds({
  db,
  ids,
  now,
}: {
  db: DbClient;
  ids: string[];
  now: Date;
}): Promise<Map<string, { takerId: string; takerName: string; until: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.request.findMany({
    where: { id: { in: ids }, takenUntil: { gt: now }, takenById: { not: null } },
    select: { id: true, takenById: true, takenUntil: true },
  });
  const takerIds = [...new Set(rows.map((row) => row.takenById!))];
  const people = takerIds.length
    ? await db.user.findMany({
        where: { id: { in: takerIds } },
        select: { id: true, name: true, email: true },
      })
    : [];
  const names = new Map(people.map((person) => [person.id, person.name ?? person.email ?? "a reviewer"]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        takerId: row.takenById!,
        takerName: names.get(row.takenById!) ?? "a reviewer",
        until: row.takenUntil!.toISOString(),
      },
    ]),
  );
}
