import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raiseSessionVersionByUserId } from "@/lib/db/session-versions";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { upsertUserByEmail } from "@/lib/db/users";
import { sessionWatchSignal } from "./session-watch";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
});

afterAll(async () => {
  await database.drop();
});

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newUser(email: string) {
  return upsertUserByEmail({ db: database.db, email, name: email, role: "user", passwordHash: null });
}

describe("sessionWatchSignal", () => {
  it("ends a stream once its session is revoked, and not before", async () => {
    const user = await newUser("watched@example.test");
    const parent = new AbortController();
    const signal = sessionWatchSignal({
      db: database.db,
      userId: user.id,
      sessionVersion: user.sessionVersion,
      signal: parent.signal,
      everyMs: 20,
    });
    await tick(100);
    expect(signal.aborted).toBe(false);

    await raiseSessionVersionByUserId({ db: database.db, userId: user.id });
    await expect.poll(() => signal.aborted, { timeout: 2_000 }).toBe(true);
    parent.abort();
  });

  it("ends with the request, and for a deleted account", async () => {
    const user = await newUser("leaving@example.test");
    const parent = new AbortController();
    const signal = sessionWatchSignal({
      db: database.db,
      userId: user.id,
      sessionVersion: 0,
      signal: parent.signal,
    });
    parent.abort();
    expect(signal.aborted).toBe(true);

    const other = new AbortController();
    const deleted = sessionWatchSignal({
      db: database.db,
      userId: user.id,
      sessionVersion: 0,
      signal: other.signal,
      everyMs: 20,
    });
    await database.db.user.delete({ where: { id: user.id } });
    await expect.poll(() => deleted.aborted, { timeout: 2_000 }).toBe(true);
    other.abort();
  });
});
