import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { insightScopeFor, loadInsightsView } from "./load-insights-view";

const NOW = new Date(Date.UTC(2030, 0, 10, 12));

describe.each<TestProvider>(["sqlite", "postgres"])("insights scope on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const db = database.db;
    await db.user.create({ data: { id: "u-ada", email: "ada@example.test", role: "admin" } });
    await db.user.create({ data: { id: "u-bo", email: "bo@example.test", role: "reviewer" } });
    const sre = await db.approverGroup.create({ data: { slug: "sre", name: "SRE" } });
    await db.approverGroup.create({ data: { slug: "ops", name: "Ops" } });
    await db.approverGroupMember.create({ data: { groupId: sre.id, userId: "u-bo" } });
    const thread = await db.thread.create({ data: { userId: "u-ada", kind: "request" } });
    for (const [id, audienceGroup] of [
      ["r-sre", "sre"],
      ["r-ops", "ops"],
    ] as const)
      await db.request.create({
        data: {
          id,
          requestId: `pnd-${id}`,
          threadId: thread.id,
          ownerId: "u-ada",
          toolCallId: id,
          toolName: "deploy",
          args: {},
          kind: "approval",
          prompt: "Deploy?",
          payload: {},
          audience: "group",
          audienceGroup,
          createdAt: new Date(NOW.getTime() - 60_000),
        },
      });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("gives admins everything and reviewers their groups plus the any-reviewer pool", async () => {
    const db = database.db;
    expect(await insightScopeFor({ db, actor: { id: "u-ada", role: "admin" } })).toEqual({ kind: "all" });
    expect(await insightScopeFor({ db, actor: { id: "u-bo", role: "reviewer" } })).toEqual({
      kind: "groups",
      slugs: ["sre"],
    });
    const admin = await loadInsightsView({ db, actor: { id: "u-ada", role: "admin" }, params: {}, now: NOW });
    expect(admin.figures.slowestOpen.map((row) => row.id)).toEqual(["r-ops", "r-sre"]);
    const reviewer = await loadInsightsView({
      db,
      actor: { id: "u-bo", role: "reviewer" },
      params: {},
      now: NOW,
    });
    expect(reviewer.figures.slowestOpen.map((row) => row.id)).toEqual(["r-sre"]);
  });

  it("refuses a reviewer's group filter outside their scope and shows their own figures instead", async () => {
    const view = await loadInsightsView({
      db: database.db,
      actor: { id: "u-bo", role: "reviewer" },
      params: { group: "ops" },
      now: NOW,
    });
    expect(view.problems.map((problem) => problem.field)).toEqual(["group"]);
    expect(view.filters.group).toBeUndefined();
    expect(view.figures.slowestOpen.map((row) => row.id)).toEqual(["r-sre"]);
  });
});
