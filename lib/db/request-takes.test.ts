import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTakesByRequestIds, releaseRequestById, takeRequestById } from "./request-takes";
import { INBOX_TEST_NOW, insertInboxRequest } from "./testing/insert-inbox-request";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

const now = new Date(INBOX_TEST_NOW);
const later = (minutes: number) => new Date(INBOX_TEST_NOW + minutes * 60_000);

describe.each<TestProvider>(["sqlite", "postgres"])("taking a request on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    await db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
    await db.user.create({ data: { id: "u-rita", email: "rita@example.test", name: "Rita" } });
    await db.user.create({ data: { id: "u-sam", email: "sam@example.test", name: "Sam" } });
    const row = {
      ownerId: "u-owner",
      kind: "approval",
      audience: "reviewers",
      prompt: "Go?",
      minutesAgo: 1,
    } as const;
    await insertInboxRequest({ db, row: { ...row, id: "r-free" } });
    await insertInboxRequest({ db, row: { ...row, id: "r-race" } });
    await insertInboxRequest({ db, row: { ...row, id: "r-done", status: "answered" } });
    await insertInboxRequest({ db, row: { ...row, id: "r-own", audience: "owner", kind: "input" } });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("gives a free request to the first taker, keeps others off until it lapses, and renews for its holder", async () => {
    const { db } = database;
    const take = (takerId: string, at: Date, until: Date) =>
      takeRequestById({ db, id: "r-free", takerId, now: at, until });
    expect(await take("u-rita", now, later(10))).toEqual({ status: "taken", until: later(10) });
    expect(await take("u-sam", later(1), later(11))).toEqual({
      status: "taken_by_other",
      takerId: "u-rita",
      until: later(10),
    });
    expect(await take("u-rita", later(2), later(12))).toEqual({ status: "taken", until: later(12) });
    expect((await listTakesByRequestIds({ db, ids: ["r-free"], now: later(3) })).get("r-free")).toEqual({
      takerId: "u-rita",
      takerName: "Rita",
      until: later(12).toISOString(),
    });
    // Lapsed: nobody holds it any more, and the next reviewer may take it.
    expect((await listTakesByRequestIds({ db, ids: ["r-free"], now: later(12) })).size).toBe(0);
    expect(await take("u-sam", later(12), later(22))).toEqual({ status: "taken", until: later(22) });
  });

  it("lets only the holder release a take", async () => {
    const { db } = database;
    expect(await releaseRequestById({ db, id: "r-free", takerId: "u-rita", now: later(13) })).toBe(false);
    expect(await releaseRequestById({ db, id: "r-free", takerId: "u-sam", now: later(13) })).toBe(true);
    expect((await listTakesByRequestIds({ db, ids: ["r-free"], now: later(13) })).size).toBe(0);
  });

  it("refuses closed requests, owner-only requests and unknown ids without writing", async () => {
    const { db } = database;
    const take = (id: string) => takeRequestById({ db, id, takerId: "u-rita", now, until: later(10) });
    expect(await take("r-done")).toEqual({ status: "closed" });
    expect(await take("r-own")).toEqual({ status: "missing" });
    expect(await take("r-nope")).toEqual({ status: "missing" });
    const rows = await db.request.findMany({ where: { id: { in: ["r-done", "r-own"] } } });
    expect(rows.map((row) => row.takenById)).toEqual([null, null]);
  });

  it("gives a request to exactly one of two reviewers racing for it from two connections", async () => {
    const other = database.connect();
    const results = await Promise.all([
      takeRequestById({ db: database.db, id: "r-race", takerId: "u-rita", now, until: later(10) }),
      takeRequestById({ db: other, id: "r-race", takerId: "u-sam", now, until: later(10) }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["taken", "taken_by_other"]);
  });
});
