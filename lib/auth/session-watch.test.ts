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

describe("sessionWatchSignal shared by the streams of one session", () => {
  /** The database, counting the user reads that go through it. */
  function countingDb() {
    let reads = 0;
    const db = new Proxy(database.db, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== "user") return value;
        return new Proxy(value, {
          get(model, method, modelReceiver) {
            const fn = Reflect.get(model, method, modelReceiver);
            if (method !== "findUnique" || typeof fn !== "function") return fn;
            return (...args: unknown[]) => {
              reads += 1;
              return fn.apply(model, args);
            };
          },
        });
      },
    });
    return { db, reads: () => reads };
  }

  it("reads the user once per interval however many streams follow the session, and ends them all", async () => {
    const user = await newUser("many-tabs@example.test");
    const counting = countingDb();
    const parents = Array.from({ length: 20 }, () => new AbortController());
    const signals = parents.map((parent) =>
      sessionWatchSignal({
        db: counting.db,
        userId: user.id,
        sessionVersion: user.sessionVersion,
        signal: parent.signal,
        everyMs: 50,
      }),
    );
    await tick(290);
    // About five intervals passed: five reads, not a hundred.
    expect(counting.reads()).toBeGreaterThanOrEqual(3);
    expect(counting.reads()).toBeLessThanOrEqual(7);

    // One stream leaving ends only that one.
    parents[0]!.abort();
    expect(signals[0]!.aborted).toBe(true);
    expect(signals.slice(1).every((signal) => !signal.aborted)).toBe(true);

    await raiseSessionVersionByUserId({ db: database.db, userId: user.id });
    await expect.poll(() => signals.every((signal) => signal.aborted), { timeout: 2_000 }).toBe(true);
  });

  it("stops reading once the last stream of the session has left", async () => {
    const user = await newUser("left@example.test");
    const counting = countingDb();
    const parents = [new AbortController(), new AbortController()];
    for (const parent of parents) {
      sessionWatchSignal({
        db: counting.db,
        userId: user.id,
        sessionVersion: user.sessionVersion,
        signal: parent.signal,
        everyMs: 20,
      });
    }
    await tick(70);
    for (const parent of parents) parent.abort();
    const after = counting.reads();
    await tick(120);
    expect(counting.reads()).toBe(after);
  });
});
