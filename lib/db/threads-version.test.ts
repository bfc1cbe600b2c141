import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./sql/client";
import { createTestDatabase, type TestProvider } from "./testing/test-database";
import { getThreadsVersionByOwner, threadsVersionOf } from "./threads-version";
import { listThreadsWithStatusByOwner } from "./threads-with-status";

let db: Db;
let cleanup: () => Promise<void>;
let clock = Date.UTC(2030, 0, 1);
const later = () => {
  clock += 60_000;
  return new Date(clock);
};

const versionOf = (userId: string) => getThreadsVersionByOwner({ db, userId });

/** Runs `change` and says whose versions it moved. */
async function moved(change: () => Promise<unknown>): Promise<string[]> {
  const users = ["u-ann", "u-bob"];
  const before = await Promise.all(users.map(versionOf));
  await change();
  const after = await Promise.all(users.map(versionOf));
  return users.filter((_, index) => after[index] !== before[index]);
}

async function addThread(userId: string, title: string): Promise<string> {
  return (await db.thread.create({ data: { userId, title, updatedAt: later() } })).id;
}

const touch = (threadId: string) =>
  db.thread.update({ where: { id: threadId }, data: { updatedAt: later() } });

describe.each<TestProvider>(["sqlite", "postgres"])("getThreadsVersionByOwner on %s", (provider) => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    ({ db, drop: cleanup } = await createTestDatabase(provider));
    for (const id of ["u-ann", "u-bob"]) await db.user.create({ data: { id, email: `${id}@example.test` } });
    first = await addThread("u-ann", "first");
    second = await addThread("u-ann", "");
  });
  afterAll(() => cleanup());

  it("is the version of the listed threads the sidebar renders", async () => {
    const listed = await listThreadsWithStatusByOwner({ db, userId: "u-ann" });
    expect(await versionOf("u-ann")).toBe(threadsVersionOf(listed));
    expect(await versionOf("u-ann")).not.toBe(await versionOf("u-bob"));
  });

  it("moves only for the owner when a thread is added, named, or reordered", async () => {
    expect(await moved(() => addThread("u-ann", "third"))).toEqual(["u-ann"]);
    expect(await moved(() => db.thread.update({ where: { id: second }, data: { title: "second" } }))).toEqual(
      ["u-ann"],
    );
    expect(await moved(() => touch(first))).toEqual(["u-ann"]);
  });

  it("stays put while the thread on top only gains events", async () => {
    expect(await moved(() => touch(first))).toEqual([]);
  });

  it("moves when the latest run starts, parks, is answered, resumes and ends", async () => {
    const runId = "run-first";
    const setRun = (status: string) => db.run.update({ where: { id: runId }, data: { status } });
    const start = () => db.run.create({ data: { id: runId, threadId: first, userId: "u-ann", model: "m" } });
    expect(await moved(start)).toEqual(["u-ann"]);
    const park = async () => {
      await setRun("pending");
      return db.request.create({
        data: {
          requestId: "pnd-1",
          runId,
          threadId: first,
          ownerId: "u-ann",
          toolCallId: "call-1",
          toolName: "ask_form",
          args: {},
          kind: "input",
          prompt: "Where to?",
          payload: {},
        },
      });
    };
    expect(await moved(park)).toEqual(["u-ann"]);
    const answer = () => db.request.updateMany({ where: { runId }, data: { status: "answered" } });
    expect(await moved(answer)).toEqual(["u-ann"]);
    expect(await moved(() => setRun("running"))).toEqual(["u-ann"]);
    expect(await moved(() => setRun("done"))).toEqual(["u-ann"]);
  });

  it("ignores what happens in other users' threads", async () => {
    const bobs = await addThread("u-bob", "bob's");
    expect(
      await moved(() =>
        db.run.create({ data: { threadId: bobs, userId: "u-bob", model: "m", status: "running" } }),
      ),
    ).toEqual(["u-bob"]);
  });
});
