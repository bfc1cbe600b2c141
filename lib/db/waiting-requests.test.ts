import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explainQuery } from "./testing/explain-query";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createLoggedDb } from "./testing/logged-db";
import { expectNoScan } from "./testing/plan-checks";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";
import { countWaitingRequestsByViewer } from "./waiting-requests";

describe.each<TestProvider>(["sqlite", "postgres"])("requests waiting for someone on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    await db.user.create({ data: { id: "u-alice", email: "alice@example.test" } });
    await db.user.create({ data: { id: "u-bob", email: "bob@example.test" } });
    await db.user.create({ data: { id: "u-rita", email: "rita@example.test", role: "reviewer" } });
    const add = (id: string, ownerId: string, audience: "owner" | "reviewers", status = "open") =>
      insertInboxRequest({
        db,
        row: {
          id,
          ownerId,
          audience,
          status,
          kind: audience === "owner" ? "input" : "approval",
          prompt: id,
          minutesAgo: 1,
        },
      });
    await add("a-input", "u-alice", "owner");
    await add("a-approval", "u-alice", "reviewers");
    await add("a-done", "u-alice", "owner", "answered");
    await add("b-input", "u-bob", "owner");
    await add("b-approval", "u-bob", "reviewers");
    await add("b-expired", "u-bob", "reviewers", "expired");
    await add("r-input", "u-rita", "owner");
    // Alice asks the finance group, of which she and Carol are members, for a vote.
    await db.user.create({ data: { id: "u-carol", email: "carol@example.test" } });
    await db.user.create({ data: { id: "u-dave", email: "dave@example.test" } });
    await db.approverGroup.create({
      data: {
        slug: "finance",
        name: "Finance",
        members: { create: [{ userId: "u-alice" }, { userId: "u-carol" }, { userId: "u-dave" }] },
      },
    });
    await add("a-group", "u-alice", "reviewers");
    await db.request.update({
      where: { id: "a-group" },
      data: { audience: "group", audienceGroup: "finance", required: 2 },
    });
    // Dave has voted; each member votes once.
    await db.requestVote.create({
      data: { requestRowId: "a-group", voterId: "u-dave", ok: true, argsHash: "h" },
    });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("counts a user's own open requests that only they answer, not their approvals", async () => {
    const count = (id: string) =>
      countWaitingRequestsByViewer({ db: database.db, viewer: { id, role: "user" } });
    expect(await count("u-alice")).toBe(1);
    expect(await count("u-bob")).toBe(1);
  });

  it("counts a group's request for its members who have not voted, never for its asker, who may not vote", async () => {
    const count = (id: string) =>
      countWaitingRequestsByViewer({ db: database.db, viewer: { id, role: "user" } });
    expect(await count("u-carol")).toBe(1);
    expect(await count("u-alice")).toBe(1);
    expect(await count("u-dave")).toBe(0);
    // Nor for an admin outside the group, who sees it but may not vote either.
    expect(
      await countWaitingRequestsByViewer({ db: database.db, viewer: { id: "u-bob", role: "admin" } }),
    ).toBe(3);
  });

  it("counts every open approval for a reviewer, plus their own requests", async () => {
    expect(
      await countWaitingRequestsByViewer({ db: database.db, viewer: { id: "u-rita", role: "reviewer" } }),
    ).toBe(3);
  });
  it.each([
    { id: "u-alice", role: "user" as const },
    { id: "u-rita", role: "reviewer" as const },
    { id: "u-carol", role: "admin" as const },
  ])("reads the count for a $role in one statement, by indexes only", async (viewer) => {
    const logged = createLoggedDb({ url: database.url, provider });
    try {
      await countWaitingRequestsByViewer({ db: logged.db, viewer });
      expect(logged.queries).toHaveLength(1);
      const plan = await explainQuery(database.db, provider, logged.queries[0]!);
      expectNoScan(provider, plan, { sorted: false });
      if (provider === "sqlite")
        expect(plan.join("\n")).toMatch(/SEARCH Request USING (COVERING )?INDEX Request_ownerId_status_/);
    } finally {
      await logged.db.$disconnect();
    }
  });
});
