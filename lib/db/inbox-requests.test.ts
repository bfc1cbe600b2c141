import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InboxQuery, listInboxRequests } from "./inbox-requests";
import type { Db } from "./sql/client";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createTestDatabase, type TestProvider } from "./testing/test-database";

let db: Db;
let cleanup: () => Promise<void>;
const alice = { id: "u-alice", role: "user" as const };
const bob = { id: "u-bob", role: "user" as const };
const rita = { id: "u-rita", role: "reviewer" as const };

function seedRequest(row: Parameters<typeof insertInboxRequest>[0]["row"]) {
  return insertInboxRequest({ db, row });
}

function query(viewer: InboxQuery["viewer"], patch: Partial<InboxQuery> = {}): InboxQuery {
  return { viewer, status: "open", sort: "newest", page: 1, pageSize: 10, ...patch };
}

async function ids(q: InboxQuery): Promise<string[]> {
  return (await listInboxRequests({ db, query: q })).rows.map((row) => row.id);
}

describe.each<TestProvider>(["sqlite", "postgres"])("listInboxRequests on %s", (provider) => {
  beforeAll(async () => {
    ({ db, drop: cleanup } = await createTestDatabase(provider));
    await db.user.create({ data: { id: alice.id, name: "Alice", email: "alice@example.test" } });
    await db.user.create({ data: { id: bob.id, name: null, email: "bob@example.test" } });
    await db.user.create({
      data: { id: rita.id, name: "Rita", role: "reviewer", email: "rita@example.test" },
    });
    await seedRequest({
      id: "a-deploy",
      ownerId: alice.id,
      kind: "approval",
      audience: "reviewers",
      prompt: "Deploy web",
      minutesAgo: 30,
      expiresInMinutes: 600,
    });
    await seedRequest({
      id: "a-flight",
      ownerId: alice.id,
      kind: "input",
      audience: "owner",
      prompt: "Flight details",
      minutesAgo: 20,
      expiresInMinutes: 60,
    });
    await seedRequest({
      id: "b-refund",
      ownerId: bob.id,
      kind: "approval",
      audience: "reviewers",
      prompt: "Refund order 9",
      minutesAgo: 10,
    });
    await seedRequest({
      id: "b-question",
      ownerId: bob.id,
      kind: "question",
      audience: "owner",
      prompt: "Favourite colour?",
      minutesAgo: 5,
      expiresInMinutes: 5,
    });
    await seedRequest({
      id: "b-old",
      ownerId: bob.id,
      kind: "approval",
      audience: "reviewers",
      prompt: "Deploy api",
      minutesAgo: 90,
      status: "answered",
    });
  });
  afterAll(() => cleanup());

  it("shows users their own requests only", async () => {
    expect(await ids(query(alice))).toEqual(["a-flight", "a-deploy"]);
    expect(await ids(query(bob))).toEqual(["b-question", "b-refund"]);
  });

  it("shows reviewers every approval but not other people's own-audience requests", async () => {
    const result = await listInboxRequests({ db, query: query(rita) });
    expect(result.rows.map((row) => row.id)).toEqual(["b-refund", "a-deploy"]);
    expect(result.total).toBe(2);
    expect(result.rows.map((row) => row.ownerName)).toEqual(["bob@example.test", "Alice"]);
  });

  it("filters by kind and status, and searches prompts", async () => {
    expect(await ids(query(bob, { kind: "question" }))).toEqual(["b-question"]);
    expect(await ids(query(rita, { status: "answered" }))).toEqual(["b-old"]);
    expect(await ids(query(rita, { search: "Deploy" }))).toEqual(["a-deploy"]);
    expect(await ids(query(alice, { search: "nothing like this" }))).toEqual([]);
  });

  it("searches prompts ignoring case on either database", async () => {
    expect(await ids(query(rita, { search: "deploy" }))).toEqual(["a-deploy"]);
    expect(await ids(query(rita, { search: "REFUND ORDER" }))).toEqual(["b-refund"]);
    expect(await ids(query(bob, { search: "fAvOuRiTe" }))).toEqual(["b-question"]);
    const result = await listInboxRequests({
      db,
      query: query(rita, { search: "DEPLOY", status: "answered" }),
    });
    expect([result.rows.map((row) => row.id), result.total]).toEqual([["b-old"], 1]);
  });

  it("sorts by age either way, and by expiry with undated requests last", async () => {
    expect(await ids(query(bob, { sort: "oldest" }))).toEqual(["b-refund", "b-question"]);
    expect(await ids(query(alice, { sort: "expiry" }))).toEqual(["a-flight", "a-deploy"]);
    expect(await ids(query(rita, { sort: "expiry" }))).toEqual(["a-deploy", "b-refund"]);
  });

  it("pages through the results with a stable total", async () => {
    const first = await listInboxRequests({ db, query: query(alice, { pageSize: 1 }) });
    const second = await listInboxRequests({ db, query: query(alice, { pageSize: 1, page: 2 }) });
    const third = await listInboxRequests({ db, query: query(alice, { pageSize: 1, page: 3 }) });
    expect([first.rows[0]?.id, second.rows[0]?.id, third.rows.length]).toEqual(["a-flight", "a-deploy", 0]);
    expect([first.total, second.total, third.total]).toEqual([2, 2, 2]);
  });
});
