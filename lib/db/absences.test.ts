import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError, toPublicError } from "@/lib/errors";
import {
  endAbsence,
  getCoverOf,
  listAbsencesOfUser,
  listCoveredPeople,
  listCurrentAbsences,
  setAbsence,
} from "./absences";
import type { DbClient } from "./db-types";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

const HOUR = 3_600_000;
const NOW = new Date(Date.UTC(2030, 0, 7, 9));
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR);

/** The field paths a refusal named, or "set" when it was not refused. */
async function refusalOf(attempt: Promise<unknown>): Promise<string[] | "set"> {
  return attempt.then(
    () => "set" as const,
    (error: unknown) => {
      const refused = toPublicError(error);
      if (refused.code !== "bad_request:input") throw error;
      return refused.issues.map((issue) => issue.path);
    },
  );
}

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`absences on ${provider}`, () => {
    let database: TestDatabase;
    let db: DbClient;
    let counter = 0;
    const person = async (role: "user" | "reviewer" | "admin", name: string) => {
      counter += 1;
      const email = `${name.toLowerCase()}-${counter}@example.test`;
      const row = await db.user.create({ data: { email, name, role } });
      return { id: row.id, email };
    };
    const away = (
      who: { id: string },
      delegate: { email: string },
      from: number,
      until: number,
      client: DbClient = db,
    ) =>
      setAbsence({
        db: client,
        userId: who.id,
        delegateEmail: delegate.email,
        startsAt: at(from),
        endsAt: at(until),
        actorId: who.id,
        now: NOW,
      });

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      db = database.db;
    });
    afterAll(async () => {
      await database.drop();
    });
    beforeEach(async () => {
      await db.absence.deleteMany();
    });

    it("sets an absence, lists it for the person, the admins and the delegate, and audits it", async () => {
      const rita = await person("reviewer", "Rita");
      const sam = await person("reviewer", "Sam");
      const admin = await person("admin", "Ada");
      const running = await away(rita, { email: ` ${sam.email.toUpperCase()} ` }, -1, 48);
      expect(running).toMatchObject({
        userId: rita.id,
        userEmail: rita.email,
        delegateId: sam.id,
        delegateEmail: sam.email,
        delegateName: "Sam",
        startsAt: at(-1).toISOString(),
        endsAt: at(48).toISOString(),
        createdById: rita.id,
      });
      // An admin sets a later one for her: the audit names the admin as who set it.
      const later = await setAbsence({
        db,
        userId: rita.id,
        delegateEmail: sam.email,
        startsAt: at(72),
        endsAt: at(96),
        actorId: admin.id,
        now: NOW,
      });
      expect((await listAbsencesOfUser({ db, userId: rita.id, now: NOW })).map((a) => a.id)).toEqual([
        running.id,
        later.id,
      ]);
      expect((await listCurrentAbsences({ db, now: NOW })).map((a) => a.id)).toEqual([running.id, later.id]);
      // Only the running one makes Sam cover for her now.
      expect(await listCoveredPeople({ db, delegateId: sam.id, now: NOW })).toEqual([
        { userId: rita.id, email: rita.email, name: "Rita", role: "reviewer", endsAt: at(48) },
      ]);
      expect(await getCoverOf({ db, userId: rita.id, now: NOW })).toEqual({
        delegateId: sam.id,
        endsAt: at(48),
      });
      expect(await getCoverOf({ db, userId: sam.id, now: NOW })).toBeNull();
      // It ends by itself: after its end nobody reads it as running.
      expect(await getCoverOf({ db, userId: rita.id, now: at(49) })).toBeNull();
      expect(await listCoveredPeople({ db, delegateId: sam.id, now: at(49) })).toEqual([]);
      expect((await listAbsencesOfUser({ db, userId: rita.id, now: at(49) })).map((a) => a.id)).toEqual([
        later.id,
      ]);
      const audit = await db.auditLog.findMany({
        where: { action: "absence.set", targetId: rita.id },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      expect(audit.map((entry) => [entry.actorId, entry.targetType, entry.detail])).toEqual([
        [
          rita.id,
          "user",
          expect.objectContaining({
            delegateId: sam.id,
            startsAt: at(-1).toISOString(),
            endsAt: at(48).toISOString(),
          }),
        ],
        [admin.id, "user", expect.objectContaining({ delegateId: sam.id, startsAt: at(72).toISOString() })],
      ]);
    });

    it("refuses each wrong absence on the field at fault, and stores nothing", async () => {
      const rita = await person("reviewer", "Rita");
      const sam = await person("reviewer", "Sam");
      const pat = await person("user", "Pat");
      const tom = await person("user", "Tom");
      expect(await refusalOf(away(rita, rita, 0, 24))).toEqual(["/delegate"]);
      expect(await refusalOf(away(rita, { email: "nobody@example.test" }, 0, 24))).toEqual(["/delegate"]);
      // A reviewer's approvals would reach someone who may not see them.
      expect(await refusalOf(away(rita, pat, 0, 24))).toEqual(["/delegate"]);
      expect(await refusalOf(away(rita, sam, 24, 2))).toEqual(["/until"]);
      expect(await refusalOf(away(rita, sam, 3, 3))).toEqual(["/until"]);
      expect(await refusalOf(away(rita, sam, -48, -1))).toEqual(["/until"]);
      expect(await refusalOf(away(rita, sam, 0, 367 * 24))).toEqual(["/until"]);
      expect(await db.absence.count()).toBe(0);
      // A user's questions may go to anyone, a reviewer too.
      expect(await refusalOf(away(pat, tom, 0, 24))).toBe("set");

      // Overlapping the person's own absence, on either side or inside.
      expect(await refusalOf(away(rita, sam, 0, 24))).toBe("set");
      expect(await refusalOf(away(rita, sam, 23, 30))).toEqual(["/from"]);
      expect(await refusalOf(away(rita, sam, -5, 1))).toEqual(["/from"]);
      expect(await refusalOf(away(rita, sam, 2, 3))).toEqual(["/from"]);
      // Touching is not overlapping: the next one may begin when the first ends.
      expect(await refusalOf(away(rita, sam, 24, 30))).toBe("set");
      // A loop set in two steps: Sam names Rita while Rita names Sam.
      expect(await refusalOf(away(sam, rita, 10, 12))).toEqual(["/delegate"]);
      // Longer loops too: Tom → Pat is set above; Pat's cover is Tom, so Tom cannot name Pat back.
      expect(await refusalOf(away(tom, pat, 1, 2))).toEqual(["/delegate"]);
      // Outside Rita's absences, Sam may name her.
      expect(await refusalOf(away(sam, rita, 40, 50))).toBe("set");
      expect(await db.absence.count()).toBe(4);
      expect(
        await db.auditLog.count({ where: { action: "absence.set", targetId: { in: [rita.id, sam.id] } } }),
      ).toBe(3);
    });

    it("names the refused fields in the error itself, for forms to show beside each input", async () => {
      const rita = await person("reviewer", "Rita");
      const error = await away(rita, rita, 5, 1).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(AppError);
      expect(toPublicError(error)).toMatchObject({
        code: "bad_request:input",
        issues: [
          { path: "/until", message: "must be after the start" },
          { path: "/delegate", message: "cannot be the person who is away" },
        ],
      });
      // An overlap says which absence it meets, in words.
      const sam = await person("reviewer", "Sam");
      await away(rita, sam, 0, 24);
      await expect(away(rita, sam, 12, 30)).rejects.toMatchObject({
        issues: [
          {
            path: "/from",
            message: "overlaps an absence already set (7 Jan 2030, 09:00 – 8 Jan 2030, 09:00 UTC)",
          },
        ],
      });
      await expect(
        setAbsence({
          db,
          userId: "no-such-user",
          delegateEmail: rita.email,
          startsAt: at(0),
          endsAt: at(1),
          actorId: rita.id,
          now: NOW,
        }),
      ).rejects.toMatchObject({ code: "not_found:user" });
    });

    it("lets only one of two people naming each other at once succeed", async () => {
      for (let round = 0; round < 3; round += 1) {
        const a = await person("reviewer", "Ana");
        const b = await person("reviewer", "Ben");
        // Two PostgreSQL pools, as two app servers would have. SQLite's instances are processes;
        // two connections of one process would wait on each other's write lock synchronously.
        const other = provider === "postgres" ? database.connect() : db;
        const outcomes = await Promise.all([
          refusalOf(away(a, b, 0, 24)),
          refusalOf(away(b, a, 0, 24, other)),
        ]);
        expect(outcomes.filter((outcome) => outcome === "set")).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome !== "set")).toEqual([["/delegate"]]);
        expect(await db.absence.count({ where: { userId: { in: [a.id, b.id] } } })).toBe(1);
      }
    });

    it("ends a running absence now and removes one not begun; only the person's own, once", async () => {
      const rita = await person("reviewer", "Rita");
      const sam = await person("reviewer", "Sam");
      const running = await away(rita, sam, -2, 24);
      const upcoming = await away(rita, sam, 48, 72);
      // Sam cannot end Rita's.
      expect(await endAbsence({ db, id: running.id, userId: sam.id, actorId: sam.id, now: NOW })).toBe(false);
      expect(await endAbsence({ db, id: running.id, userId: rita.id, actorId: rita.id, now: NOW })).toBe(
        true,
      );
      expect(await db.absence.findUnique({ where: { id: running.id } })).toMatchObject({
        startsAt: at(-2),
        endsAt: NOW,
      });
      expect(await getCoverOf({ db, userId: rita.id, now: NOW })).toBeNull();
      expect(await listCoveredPeople({ db, delegateId: sam.id, now: NOW })).toEqual([]);
      // Ended once: a second end finds nothing left to end.
      expect(await endAbsence({ db, id: running.id, userId: rita.id, actorId: rita.id, now: NOW })).toBe(
        false,
      );
      expect(await endAbsence({ db, id: upcoming.id, userId: rita.id, actorId: rita.id, now: NOW })).toBe(
        true,
      );
      expect(await db.absence.findUnique({ where: { id: upcoming.id } })).toBeNull();
      expect(await endAbsence({ db, id: "no-such-absence", actorId: rita.id, now: NOW })).toBe(false);
      expect(await listAbsencesOfUser({ db, userId: rita.id, now: NOW })).toEqual([]);
      // An admin (no userId) ends anyone's.
      const admin = await person("admin", "Ada");
      const again = await away(rita, sam, 1, 5);
      expect(await endAbsence({ db, id: again.id, actorId: admin.id, now: NOW })).toBe(true);
      const ended = await db.auditLog.findMany({
        where: { action: "absence.ended", targetId: rita.id },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      expect(ended.map((entry) => entry.actorId)).toEqual([rita.id, rita.id, admin.id]);
      // The period freed by ending may be set again.
      expect(await refusalOf(away(rita, sam, 0, 10))).toBe("set");
    });
  });
}
