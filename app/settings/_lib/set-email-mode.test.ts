import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import { getEmailWhenDecidedByUser } from "@/lib/db/decided-mail";
import { getEmailModeByUser } from "@/lib/db/notification-settings";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { toPublicError } from "@/lib/errors";
import { setEmailMode } from "./set-email-mode";

describe.each<TestProvider>(["sqlite", "postgres"])("the email setting on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("is at once by default, changes only the signed-in person's own, and refuses bad input", async () => {
    const db = database.db;
    const [alice, bob] = [await newUser(db, "user"), await newUser(db, "reviewer")];
    expect(await getEmailModeByUser({ db, userId: alice.id })).toBe("instant");
    await setEmailMode({ actor: alice, input: { mode: "digest", whenDecided: false } }, { db });
    await setEmailMode({ actor: alice, input: { mode: "off", whenDecided: false } }, { db });
    expect(await getEmailModeByUser({ db, userId: alice.id })).toBe("off");
    expect(await getEmailModeByUser({ db, userId: bob.id })).toBe("instant");
    // Whose setting it is comes from the session: an id in the input is refused, not followed.
    const refused = await setEmailMode(
      { actor: alice, input: { mode: "digest", whenDecided: false, userId: bob.id } },
      { db },
    ).then(() => null, toPublicError);
    expect(refused).toMatchObject({ code: "bad_request:input" });
    const bad = await setEmailMode(
      { actor: bob, input: { mode: "hourly", whenDecided: false } },
      { db },
    ).then(() => null, toPublicError);
    expect(bad).toMatchObject({ code: "bad_request:input", issues: [{ path: "/mode" }] });
    expect(await getEmailModeByUser({ db, userId: bob.id })).toBe("instant");
    expect(await getEmailModeByUser({ db, userId: alice.id })).toBe("off");
  });

  it("saves whether to mail the asker when decided, off by default, and refuses a non-boolean", async () => {
    const db = database.db;
    const [carol, dan] = [await newUser(db, "user"), await newUser(db, "user")];
    expect(await getEmailWhenDecidedByUser({ db, userId: carol.id })).toBe(false);
    await setEmailMode({ actor: carol, input: { mode: "digest", whenDecided: true } }, { db });
    expect(await getEmailWhenDecidedByUser({ db, userId: carol.id })).toBe(true);
    expect(await getEmailModeByUser({ db, userId: carol.id })).toBe("digest");
    expect(await getEmailWhenDecidedByUser({ db, userId: dan.id })).toBe(false);
    for (const whenDecided of ["yes", 1, null, undefined]) {
      const refused = await setEmailMode({ actor: carol, input: { mode: "off", whenDecided } }, { db }).then(
        () => null,
        toPublicError,
      );
      expect(refused).toMatchObject({ code: "bad_request:input", issues: [{ path: "/whenDecided" }] });
    }
    // Nothing of a refused input was saved: neither the mode nor the choice.
    expect(await getEmailModeByUser({ db, userId: carol.id })).toBe("digest");
    expect(await getEmailWhenDecidedByUser({ db, userId: carol.id })).toBe(true);
    await setEmailMode({ actor: carol, input: { mode: "digest", whenDecided: false } }, { db });
    expect(await getEmailWhenDecidedByUser({ db, userId: carol.id })).toBe(false);
  });
});
