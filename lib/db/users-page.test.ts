import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";
import { listUsersPage } from "./users-page";

const DAY = 24 * 60 * 60_000;
const START = Date.UTC(2030, 0, 1);

const PEOPLE = [
  { id: "u-ada", name: "Ada Lovelace", email: "ada@example.test", role: "admin" },
  { id: "u-bo", name: "Bo Ström", email: "bo@analytical.test", role: "reviewer" },
  { id: "u-cy", name: "Cy Young", email: "cy@example.test", role: "user" },
  { id: "u-di", name: null, email: "di@example.test", role: "user" },
  { id: "u-ed", name: "Ed ADAMS", email: "ed@example.test", role: "user" },
] as const;

describe.each<TestProvider>(["sqlite", "postgres"])("listUsersPage on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    for (const [index, person] of PEOPLE.entries()) {
      await database.db.user.create({ data: { ...person, createdAt: new Date(START + index * DAY) } });
    }
    const open = { kind: "approval", audience: "reviewers", prompt: "Go?", minutesAgo: 1 } as const;
    await insertInboxRequest({ db: database.db, row: { ...open, id: "r1", ownerId: "u-cy" } });
    await insertInboxRequest({ db: database.db, row: { ...open, id: "r2", ownerId: "u-cy" } });
    await insertInboxRequest({
      db: database.db,
      row: { ...open, id: "r3", ownerId: "u-cy", status: "answered" },
    });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("lists everyone newest first, with role and open request counts", async () => {
    const { rows, total } = await listUsersPage({ db: database.db, page: 1, pageSize: 10 });
    expect(total).toBe(5);
    expect(rows.map((row) => row.id)).toEqual(["u-ed", "u-di", "u-cy", "u-bo", "u-ada"]);
    expect(rows.find((row) => row.id === "u-cy")).toEqual({
      id: "u-cy",
      name: "Cy Young",
      email: "cy@example.test",
      role: "user",
      createdAt: new Date(START + 2 * DAY).toISOString(),
      openRequests: 2,
    });
    expect(rows.find((row) => row.id === "u-ada")).toMatchObject({ role: "admin", openRequests: 0 });
  });

  it("pages without overlap, and counts every match", async () => {
    const pages = [1, 2, 3].map((page) => listUsersPage({ db: database.db, page, pageSize: 2 }));
    const [first, second, third] = await Promise.all(pages);
    expect([first, second, third].map((p) => p!.total)).toEqual([5, 5, 5]);
    expect([first, second, third].map((p) => p!.rows.map((row) => row.id))).toEqual([
      ["u-ed", "u-di"],
      ["u-cy", "u-bo"],
      ["u-ada"],
    ]);
  });

  it("searches names and emails, ignoring case", async () => {
    const search = async (text: string) => {
      const { rows, total } = await listUsersPage({ db: database.db, search: text, page: 1, pageSize: 10 });
      expect(total).toBe(rows.length);
      return rows.map((row) => row.id);
    };
    expect(await search("ada")).toEqual(["u-ed", "u-ada"]);
    expect(await search("ANALYTICAL")).toEqual(["u-bo"]);
    expect(await search("di@")).toEqual(["u-di"]);
    expect(await search("nobody")).toEqual([]);
  });
});
