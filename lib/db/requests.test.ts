import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getBareRequestById, getRequestById } from "./requests";
import { resolveRequest } from "./resolve-request";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

describe.each<TestProvider>(["sqlite", "postgres"])("reading one request on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    await database.db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("reads a request without its answer, the same as with it otherwise", async () => {
    const { db } = database;
    await insertInboxRequest({
      db,
      row: {
        id: "r-open",
        ownerId: "u-owner",
        kind: "approval",
        audience: "reviewers",
        prompt: "Go?",
        minutesAgo: 5,
      },
    });
    await insertInboxRequest({
      db,
      row: {
        id: "r-done",
        ownerId: "u-owner",
        kind: "input",
        audience: "owner",
        prompt: "Name?",
        minutesAgo: 3,
      },
    });
    const claimed = await resolveRequest({
      db,
      id: "r-done",
      resolution: {
        status: "answered",
        answer: { id: "pnd-r-done", ok: true, data: { name: "Ada" } },
        actorId: "u-owner",
      },
    });
    expect(claimed.claimed).toBe(true);

    for (const id of ["r-open", "r-done"]) {
      const full = await getRequestById({ db, id });
      const { answer: _answer, ...withoutAnswer } = full!;
      expect(await getBareRequestById({ db, id })).toStrictEqual(withoutAnswer);
    }
    expect(await getBareRequestById({ db, id: "r-done" })).toMatchObject({
      status: "answered",
      audience: "owner",
    });
    expect(await getBareRequestById({ db, id: "no-such-request" })).toBeNull();
  });
});
