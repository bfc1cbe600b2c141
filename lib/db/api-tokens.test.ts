import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countActiveApiTokensByUser, createApiToken, revokeApiTokenById } from "./api-tokens";
import type { DbClient } from "./db-types";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

// The cap on how many working tokens one person holds, on both databases, with creates racing
// on separate connections as two app instances would.

describe.each<TestProvider>(["sqlite", "postgres"])("the API token limit on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const person = async () =>
    (await database.db.user.create({ data: { email: `${randomUUID()}@example.test`, role: "user" } })).id;
  const make = (db: DbClient, userId: string, limit: number, expiresAt: Date | null = null) => {
    const hash = randomBytes(32).toString("hex");
    return createApiToken({
      db,
      userId,
      name: "ci",
      tokenHash: hash,
      prefix: `tnx_${hash.slice(0, 6)}`,
      scopes: ["requests:write"],
      expiresAt,
      limit,
    });
  };

  it("refuses the 21st active token and writes nothing for it; a revoked or expired one frees a place", async () => {
    const userId = await person();
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await make(database.db, userId, 20));
    expect(made.every((outcome) => outcome.status === "created")).toBe(true);
    expect(await make(database.db, userId, 20)).toEqual({ status: "limit" });
    expect(await database.db.apiToken.count({ where: { userId } })).toBe(20);
    expect(
      await database.db.auditLog.count({ where: { actorId: userId, action: "api_token.created" } }),
    ).toBe(20);
    // Someone else's tokens are theirs to count.
    expect((await make(database.db, await person(), 20)).status).toBe("created");

    const first = made[0]!;
    if (first.status !== "created") throw new Error("unreachable");
    await revokeApiTokenById({ db: database.db, id: first.row.id, actorId: userId });
    expect((await make(database.db, userId, 20)).status).toBe("created");
    expect(await make(database.db, userId, 20)).toEqual({ status: "limit" });
    await database.db.apiToken.updateMany({
      where: { id: made[1]!.status === "created" ? made[1]!.row.id : "" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await make(database.db, userId, 20)).status).toBe("created");
    expect(await countActiveApiTokensByUser({ db: database.db, userId, now: new Date() })).toBe(20);
  });

  it("holds when two instances create tokens for one person at once", async () => {
    const userId = await person();
    for (let i = 0; i < 14; i++) await make(database.db, userId, 20);
    // Two PostgreSQL pools. SQLite's instances are processes; two connections of one process
    // would wait on each other's write lock synchronously, so there they share one client.
    const [a, b] =
      provider === "postgres" ? [database.connect(), database.connect()] : [database.db, database.db];
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => make(i % 2 === 0 ? a : b, userId, 20)),
    );
    expect(outcomes.filter((outcome) => outcome.status === "created")).toHaveLength(6);
    expect(await countActiveApiTokensByUser({ db: database.db, userId, now: new Date() })).toBe(20);
  });
});
