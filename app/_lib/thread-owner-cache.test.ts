import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createThread } from "@/lib/db/chat-threads";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase } from "@/lib/db/testing/test-database";
import { createThreadOwnerCache } from "./thread-owner-cache";

let db: Db;
let drop: () => Promise<void>;
const threads: Record<string, string> = {};

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase("sqlite"));
  for (const userId of ["u-ann", "u-bob"]) {
    await db.user.create({ data: { id: userId, email: `${userId}@example.test` } });
  }
  for (const [name, userId] of [
    ["a", "u-ann"],
    ["b", "u-bob"],
    ["c", "u-ann"],
  ] as const) {
    threads[name] = (await createThread({ db, userId })).id;
  }
});
afterAll(() => drop());

/** A cache over the test database that records which threads it queried, in order. */
function cacheOf(capacity?: number) {
  const lookups: string[] = [];
  const cache = createThreadOwnerCache({
    db,
    ...(capacity === undefined ? {} : { capacity }),
    onLookup: (threadId) => lookups.push(threadId),
  });
  return { cache, lookups };
}

describe("createThreadOwnerCache", () => {
  it("queries a thread's owner once and answers from memory after that", async () => {
    const { cache, lookups } = cacheOf();
    expect(await cache.ownerOf(threads.a!)).toBe("u-ann");
    expect(await cache.ownerOf(threads.b!)).toBe("u-bob");
    expect(await cache.ownerOf(threads.a!)).toBe("u-ann");
    expect(await cache.ownerOf(threads.b!)).toBe("u-bob");
    expect(lookups).toEqual([threads.a, threads.b]);
  });

  it("shares one query between callers asking about the same thread at once", async () => {
    const { cache, lookups } = cacheOf();
    const owners = await Promise.all([
      cache.ownerOf(threads.a!),
      cache.ownerOf(threads.a!),
      cache.ownerOf(threads.b!),
      cache.ownerOf(threads.a!),
    ]);
    expect(owners).toEqual(["u-ann", "u-ann", "u-bob", "u-ann"]);
    expect(lookups).toEqual([threads.a, threads.b]);
  });

  it("answers null for a thread that does not exist, and asks again next time", async () => {
    const { cache, lookups } = cacheOf();
    expect(await cache.ownerOf("no-such-thread")).toBeNull();
    expect(await cache.ownerOf("no-such-thread")).toBeNull();
    expect(lookups).toEqual(["no-such-thread", "no-such-thread"]);
  });

  it("forgets the least recently asked thread beyond its capacity", async () => {
    const { cache, lookups } = cacheOf(2);
    await cache.ownerOf(threads.a!);
    await cache.ownerOf(threads.b!);
    // Asking about a again makes b the coldest, so c pushes b out.
    await cache.ownerOf(threads.a!);
    await cache.ownerOf(threads.c!);
    expect(lookups).toEqual([threads.a, threads.b, threads.c]);

    expect(await cache.ownerOf(threads.a!)).toBe("u-ann");
    expect(await cache.ownerOf(threads.c!)).toBe("u-ann");
    expect(lookups).toHaveLength(3);
    expect(await cache.ownerOf(threads.b!)).toBe("u-bob");
    expect(lookups).toEqual([threads.a, threads.b, threads.c, threads.b]);
  });
});
