import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import { listAbsencesOfUser } from "@/lib/db/absences";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { toPublicError } from "@/lib/errors";
import { endOwnAbsence, setOwnAbsence } from "./manage-own-absences";

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const refusal = (attempt: Promise<unknown>) => attempt.then(() => null, toPublicError);

describe.each<TestProvider>(["sqlite", "postgres"])("a person's own absences on %s", (provider) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    db = database.db as Db;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("sets the signed-in person's own, and ends only their own", async () => {
    const [rita, sam] = [await newUser(db, "reviewer"), await newUser(db, "reviewer")];
    const set = await setOwnAbsence(
      { actor: rita, input: { from: inHours(-1), until: inHours(24), delegate: sam.email } },
      { db },
    );
    expect(set).toMatchObject({ userId: rita.id, delegateId: sam.id, createdById: rita.id });
    // Whose absence it is comes from the session: an id in the input is refused, not followed.
    const smuggled = await refusal(
      setOwnAbsence(
        {
          actor: sam,
          input: { from: inHours(30), until: inHours(40), delegate: rita.email, userId: rita.id },
        },
        { db },
      ),
    );
    expect(smuggled).toMatchObject({ code: "bad_request:input" });
    expect(await db.absence.count({ where: { userId: sam.id } })).toBe(0);
    // Sam cannot end Rita's: to him it does not exist.
    expect(await refusal(endOwnAbsence({ actor: sam, input: { id: set.id } }, { db }))).toMatchObject({
      code: "not_found:absence",
    });
    expect(await listAbsencesOfUser({ db, userId: rita.id, now: new Date() })).toHaveLength(1);
    expect(await endOwnAbsence({ actor: rita, input: { id: set.id } }, { db })).toEqual({ id: set.id });
    expect(await listAbsencesOfUser({ db, userId: rita.id, now: new Date() })).toEqual([]);
    expect(await refusal(endOwnAbsence({ actor: rita, input: { id: set.id } }, { db }))).toMatchObject({
      code: "not_found:absence",
    });
  });

  it("refuses bad input and wrong absences on the field at fault", async () => {
    const [pat, rita] = [await newUser(db, "user"), await newUser(db, "reviewer")];
    const paths = async (input: unknown) =>
      (await refusal(setOwnAbsence({ actor: rita, input }, { db })))?.issues.map((issue) => issue.path);
    const good = { from: inHours(1), until: inHours(5), delegate: pat.email };
    expect(await paths({ ...good, from: "tomorrow" })).toEqual(["/from"]);
    expect(await paths({ ...good, until: "2030-01-01 10:00" })).toEqual(["/until"]);
    expect(await paths({ ...good, delegate: "  " })).toEqual(["/delegate"]);
    expect(await paths({ from: good.from, until: good.until })).toEqual(["/delegate"]);
    expect(await paths({ ...good, delegate: rita.email })).toEqual(["/delegate"]);
    // A reviewer's approvals cannot go to a plain user, who could not see them.
    expect(await paths(good)).toEqual(["/delegate"]);
    expect(
      await paths({ ...good, from: good.until, until: good.from, delegate: "nobody@example.test" }),
    ).toEqual(["/until", "/delegate"]);
    expect(await db.absence.count({ where: { userId: rita.id } })).toBe(0);
  });
});
