import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getInboxVersionByViewer } from "./inbox-version";
import type { Db } from "./sql/client";
import { explainQuery } from "./testing/explain-query";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createLoggedDb } from "./testing/logged-db";
import { expectNoScan } from "./testing/plan-checks";
import { createTestDatabase, type TestProvider } from "./testing/test-database";

let db: Db;
let url: string;
let cleanup: () => Promise<void>;
const alice = { id: "u-alice", role: "user" as const };
const bob = { id: "u-bob", role: "user" as const };
const rita = { id: "u-rita", role: "reviewer" as const };

// Each new row is a minute younger than the last, as rows written one after another are.
let minutesAgo = 1_000;
let counter = 0;

async function addRequest(ownerId: string, audience: "owner" | "reviewers"): Promise<string> {
  counter += 1;
  minutesAgo -= 1;
  const id = `req-${counter}`;
  await insertInboxRequest({
    db,
    row: {
      id,
      ownerId,
      audience,
      kind: audience === "reviewers" ? "approval" : "input",
      prompt: id,
      minutesAgo,
    },
  });
  return id;
}

function resolve(id: string, status: "answered" | "expired" | "cancelled" = "answered") {
  return db.request.update({ where: { id }, data: { status, resolvedAt: new Date() } });
}

const versionOf = (viewer: typeof alice | typeof rita) => getInboxVersionByViewer({ db, viewer });

/** Runs `change` and says which viewers' versions it moved. */
async function moved(change: () => Promise<unknown>): Promise<string[]> {
  const viewers = { alice, bob, rita };
  const before = Object.fromEntries(
    await Promise.all(Object.entries(viewers).map(async ([name, v]) => [name, await versionOf(v)])),
  );
  await change();
  const changed: string[] = [];
  for (const [name, viewer] of Object.entries(viewers)) {
    if ((await versionOf(viewer)) !== before[name]) changed.push(name);
  }
  return changed;
}

describe.each<TestProvider>(["sqlite", "postgres"])("getInboxVersionByViewer on %s", (provider) => {
  beforeAll(async () => {
    ({ db, url, drop: cleanup } = await createTestDatabase(provider));
    await db.user.create({ data: { id: alice.id, name: "Alice", email: "alice@example.test" } });
    await db.user.create({ data: { id: bob.id, name: "Bob", email: "bob@example.test" } });
    await db.user.create({
      data: { id: rita.id, name: "Rita", role: "reviewer", email: "rita@example.test" },
    });
  });
  afterAll(() => cleanup());

  it("stays the same while nothing changes", async () => {
    await addRequest(alice.id, "owner");
    expect(await versionOf(alice)).toBe(await versionOf(alice));
    expect(await versionOf(rita)).toBe(await versionOf(rita));
  });

  it("moves for the owner and the reviewers when an approval is asked", async () => {
    expect(await moved(() => addRequest(bob.id, "reviewers"))).toEqual(["bob", "rita"]);
  });

  it("moves only for the owner when a request addressed to its owner is asked", async () => {
    expect(await moved(() => addRequest(alice.id, "owner"))).toEqual(["alice"]);
  });

  it("moves for a reviewer's own requests", async () => {
    expect(await moved(() => addRequest(rita.id, "owner"))).toEqual(["rita"]);
  });

  it("moves when a request is answered, expires or is cancelled", async () => {
    const approval = await addRequest(bob.id, "reviewers");
    const input = await addRequest(alice.id, "owner");
    const question = await addRequest(alice.id, "owner");
    expect(await moved(() => resolve(approval))).toEqual(["bob", "rita"]);
    expect(await moved(() => resolve(input, "expired"))).toEqual(["alice"]);
    expect(await moved(() => resolve(question, "cancelled"))).toEqual(["alice"]);
  });

  it("moves when one request is asked and another answered between two looks", async () => {
    const older = await addRequest(bob.id, "reviewers");
    const change = async () => {
      await addRequest(alice.id, "reviewers");
      await resolve(older);
    };
    expect(await moved(change)).toEqual(["alice", "bob", "rita"]);
  });

  it("moves when a request is asked and answered between two looks", async () => {
    const change = async () => resolve(await addRequest(bob.id, "reviewers"), "cancelled");
    expect(await moved(change)).toEqual(["bob", "rita"]);
  });

  it("moves for the reviewers when someone takes one of their requests or lets it go", async () => {
    const approval = await addRequest(bob.id, "reviewers");
    const take = (takenById: string | null) =>
      db.request.update({
        where: { id: approval },
        data: {
          takenById,
          takenUntil: takenById ? new Date(Date.now() + 60_000) : null,
          takeChangedAt: new Date(),
        },
      });
    expect(await moved(() => take(rita.id))).toEqual(["rita"]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await moved(() => take(null))).toEqual(["rita"]);
  });
  it("moves for the group's members and the asker when a member votes and the request stays open", async () => {
    const group = await db.approverGroup.create({
      data: { slug: "votes", name: "Votes", members: { create: [{ userId: rita.id }] } },
    });
    const approval = await addRequest(bob.id, "reviewers");
    await db.request.update({
      where: { id: approval },
      data: { audience: "group", audienceGroup: group.slug, required: 2 },
    });
    const vote = () =>
      db.requestVote.create({ data: { requestRowId: approval, voterId: rita.id, ok: true, argsHash: "h" } });
    expect(await moved(vote)).toEqual(["bob", "rita"]);
  });

  it("moves for the owner and the reviewers when an escalation step fires and the request stays open", async () => {
    const approval = await addRequest(bob.id, "reviewers");
    const escalate = () => db.request.update({ where: { id: approval }, data: { escalatedAt: new Date() } });
    expect(await moved(escalate)).toEqual(["bob", "rita"]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await moved(escalate)).toEqual(["bob", "rita"]);
  });

  it.each([
    ["a user", alice],
    ["a reviewer", rita],
  ] as const)("reads %s's version in one statement, every part of it by an index", async (_, viewer) => {
    const logged = createLoggedDb({ url, provider });
    try {
      expect(await getInboxVersionByViewer({ db: logged.db, viewer })).toBe(await versionOf(viewer));
      expect(logged.queries).toHaveLength(1);
      const plan = await explainQuery(db, provider, logged.queries[0]!);
      const text = plan.join("\n");
      expectNoScan(provider, plan);
      if (provider === "postgres") expect(text, text).not.toMatch(/Sort/);
      expect(text).toContain("Request_ownerId_status_createdAt_idx");
      // The newest fired escalation step: the own half by owner, the group's by audience.
      expect(text).toContain("Request_ownerId_status_escalatedAt_idx");
      expect(text).toContain("Request_status_audience_escalatedAt_idx");
      if (viewer.role !== "user") {
        expect(text).toContain("Request_status_audience_createdAt_id_idx");
        expect(text).toContain("Request_status_audience_takeChangedAt_idx");
      }
    } finally {
      await logged.db.$disconnect();
    }
  });
});
