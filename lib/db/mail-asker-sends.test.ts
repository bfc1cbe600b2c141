import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIL_ASKER_SPAN_MS, takeMailAskerSend } from "./mail-asker-sends";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

// One person's requests mailed at once, counted over every 60 minutes (ADR 0104), on both
// databases, with takes racing on separate connections as several instances would.

describe.each<TestProvider>(["sqlite", "postgres"])("mailed requests of one person on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("counts exactly `perHour` of takes racing from four instances", async () => {
    const askerId = randomUUID();
    const at = new Date();
    const clients = [database.db, database.connect(), database.connect(), database.connect()];
    const taken = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        takeMailAskerSend({ db: clients[i % 3]!, askerId, perHour: 4, at }),
      ),
    );
    expect(taken.filter(Boolean)).toHaveLength(4);
    expect(await database.db.mailAskerSend.count({ where: { askerId } })).toBe(4);
  });

  it("frees a place exactly 60 minutes after it was taken, and keeps only the last hour's rows", async () => {
    const askerId = randomUUID();
    const start = Date.UTC(2031, 0, 1, 10, 59);
    const take = (ms: number) =>
      takeMailAskerSend({ db: database.db, askerId, perHour: 2, at: new Date(start + ms) });
    expect([await take(0), await take(1_000)]).toEqual([true, true]);
    // 11:00 is a clock hour's edge: the two of 10:59 still count.
    expect(await take(2 * 60_000)).toBe(false);
    expect(await take(MAIL_ASKER_SPAN_MS)).toBe(false);
    expect(await take(MAIL_ASKER_SPAN_MS + 1)).toBe(true);
    expect(await take(MAIL_ASKER_SPAN_MS + 2)).toBe(false);
    expect(await database.db.mailAskerSend.count({ where: { askerId } })).toBe(2);
    // Another person's count is their own; a limit of 0 counts nothing.
    expect(
      await takeMailAskerSend({ db: database.db, askerId: randomUUID(), perHour: 2, at: new Date(start) }),
    ).toBe(true);
    expect(await takeMailAskerSend({ db: database.db, askerId, perHour: 0, at: new Date(start) })).toBe(
      false,
    );
  });
});
