import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./sql/client";
import { createTestDatabase, type TestProvider } from "./testing/test-database";
import { listThreadsWithStatusByOwner } from "./threads-with-status";

let db: Db;
let cleanup: () => Promise<void>;
let counter = 0;
const START = Date.UTC(2030, 0, 1);

/** A thread of `userId` whose runs have the given statuses, oldest first; returns its id. */
async function addThread(userId: string, title: string, runs: string[]): Promise<string> {
  counter += 1;
  const thread = await db.thread.create({
    data: { userId, title, updatedAt: new Date(START + counter * 60_000) },
  });
  for (const [index, status] of runs.entries()) {
    await db.run.create({
      data: {
        id: `${thread.id}-run-${index}`,
        threadId: thread.id,
        userId,
        model: "m",
        status,
        createdAt: new Date(START + index * 1_000),
      },
    });
  }
  return thread.id;
}

async function addRequest(threadId: string, run: number, audience: "owner" | "reviewers", status = "open") {
  counter += 1;
  const { userId } = await db.thread.findUniqueOrThrow({ where: { id: threadId } });
  await db.request.create({
    data: {
      requestId: `pnd-${counter}`,
      runId: `${threadId}-run-${run}`,
      threadId,
      ownerId: userId,
      toolCallId: `call-${counter}`,
      toolName: audience === "owner" ? "ask_form" : "refund",
      args: {},
      kind: audience === "owner" ? "input" : "approval",
      prompt: `request ${counter}`,
      payload: {},
      audience,
      status,
    },
  });
}

async function statusesOf(userId: string): Promise<Record<string, string | null>> {
  const items = await listThreadsWithStatusByOwner({ db, userId });
  return Object.fromEntries(items.map((item) => [item.title, item.status]));
}

describe.each<TestProvider>(["sqlite", "postgres"])("listThreadsWithStatusByOwner on %s", (provider) => {
  beforeAll(async () => {
    ({ db, drop: cleanup } = await createTestDatabase(provider));
    for (const id of ["u-ann", "u-bob", "u-cy"]) {
      await db.user.create({ data: { id, email: `${id}@example.test` } });
    }
  });
  afterAll(() => cleanup());

  it("says which of the owner's threads is working, needs them, or waits for a reviewer", async () => {
    await addThread("u-ann", "quiet", ["done", "done"]);
    await addThread("u-ann", "working", ["done", "running"]);
    const needsYou = await addThread("u-ann", "needs you", ["pending"]);
    await addRequest(needsYou, 0, "reviewers");
    await addRequest(needsYou, 0, "owner");
    const review = await addThread("u-ann", "waiting", ["done", "pending"]);
    await addRequest(review, 1, "owner", "answered");
    await addRequest(review, 1, "reviewers");
    await addThread("u-ann", "failed", ["pending", "failed"]);
    await addThread("u-ann", "cancelled", ["cancelled"]);
    await addThread("u-ann", "never run", []);

    expect(await statusesOf("u-ann")).toEqual({
      quiet: null,
      working: "working",
      "needs you": "needs_you",
      waiting: "waiting_for_reviewer",
      failed: null,
      cancelled: null,
      "never run": null,
    });
  });

  it("lists the threads as listThreadsByOwner does, most recently active first", async () => {
    const items = await listThreadsWithStatusByOwner({ db, userId: "u-ann", limit: 3 });
    expect(items.map((item) => [item.title, item.status])).toEqual([
      ["never run", null],
      ["cancelled", null],
      ["failed", null],
    ]);
    expect(items[0]).toMatchObject({ userId: "u-ann", createdAt: expect.any(String) });
  });

  it("tells nothing of other users' threads, runs and requests", async () => {
    const bobs = await addThread("u-bob", "bob's", ["pending"]);
    await addRequest(bobs, 0, "owner");
    await addThread("u-bob", "bob's running", ["running"]);
    expect(await statusesOf("u-cy")).toEqual({});
    expect(Object.keys(await statusesOf("u-ann"))).not.toContain("bob's");
    expect(await statusesOf("u-bob")).toEqual({ "bob's": "needs_you", "bob's running": "working" });
  });
});
