import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { toPublicError } from "@/lib/errors";
import { endAbsenceAsAdmin, setAbsenceAsAdmin } from "./manage-absences";

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const refusal = (attempt: Promise<unknown>) => attempt.then(() => null, toPublicError);

describe.each<TestProvider>(["sqlite", "postgres"])("absences set by admins on %s", (provider) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    db = database.db as Db;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("lets an admin set and end anyone's absence, audited as the admin's", async () => {
    const [admin, rita, sam] = [
      await newUser(db, "admin"),
      await newUser(db, "reviewer"),
      await newUser(db, "reviewer"),
    ];
    const input = {
      user: String(rita.email).toUpperCase(),
      from: inHours(-1),
      until: inHours(24),
      delegate: sam.email,
    };
    const set = await setAbsenceAsAdmin({ actor: admin, input }, { db });
    expect(set).toMatchObject({ userId: rita.id, delegateId: sam.id, createdById: admin.id });
    expect(await endAbsenceAsAdmin({ actor: admin, input: { id: set.id } }, { db })).toEqual({ id: set.id });
    expect(await refusal(endAbsenceAsAdmin({ actor: admin, input: { id: set.id } }, { db }))).toMatchObject({
      code: "not_found:absence",
    });
    const audit = await db.auditLog.findMany({
      where: { targetId: rita.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { actorId: true, action: true },
    });
    expect(audit).toEqual([
      { actorId: admin.id, action: "absence.set" },
      { actorId: admin.id, action: "absence.ended" },
    ]);
  });

  it.each(["user", "reviewer"] as const)("refuses a %s, even setting their own this way", async (role) => {
    const actor = await newUser(db, role);
    const [rita, sam] = [await newUser(db, "reviewer"), await newUser(db, "reviewer")];
    for (const user of [rita.email, actor.email]) {
      const input = { user, from: inHours(1), until: inHours(5), delegate: sam.email };
      expect(await refusal(setAbsenceAsAdmin({ actor, input }, { db }))).toMatchObject({
        code: "forbidden:role",
      });
    }
    const theirs = await setAbsenceAsAdmin(
      {
        actor: await newUser(db, "admin"),
        input: { user: rita.email, from: inHours(1), until: inHours(5), delegate: sam.email },
      },
      { db },
    );
    expect(await refusal(endAbsenceAsAdmin({ actor, input: { id: theirs.id } }, { db }))).toMatchObject({
      code: "forbidden:role",
    });
    expect(await db.absence.count({ where: { id: theirs.id } })).toBe(1);
  });

  it("refuses an unknown person, bad input and wrong absences on the field at fault", async () => {
    const [admin, rita, sam] = [
      await newUser(db, "admin"),
      await newUser(db, "reviewer"),
      await newUser(db, "reviewer"),
    ];
    const paths = async (input: unknown) =>
      (await refusal(setAbsenceAsAdmin({ actor: admin, input }, { db })))?.issues.map((issue) => issue.path);
    const good = { user: rita.email, from: inHours(1), until: inHours(5), delegate: sam.email };
    expect(await paths({ ...good, user: "nobody@example.test" })).toEqual(["/user"]);
    expect(await paths({ ...good, user: "" })).toEqual(["/user"]);
    expect(await paths({ ...good, extra: true })).toEqual(["/"]);
    expect(await paths({ ...good, delegate: rita.email })).toEqual(["/delegate"]);
    await setAbsenceAsAdmin({ actor: admin, input: good }, { db });
    // The loop A→B→A, the second step set by the admin too.
    expect(await paths({ ...good, user: sam.email, delegate: rita.email })).toEqual(["/delegate"]);
    expect(await paths({ ...good, from: inHours(4), until: inHours(8) })).toEqual(["/from"]);
    expect(await db.absence.count({ where: { userId: { in: [rita.id, sam.id] } } })).toBe(1);
  });
});
