import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActiveRunsPage } from "./active-runs-page";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

const MINUTE = 60_000;
const START = Date.UTC(2030, 0, 1);

describe.each<TestProvider>(["sqlite", "postgres"])("listActiveRunsPage on %s", (provider) => {
  let database: TestDatabase;

  async function insertRun(id: string, ownerId: string, status: string, minute: number, title = id) {
    const { db } = database;
    const thread = await db.thread.create({ data: { userId: ownerId, title } });
    await db.run.create({
      data: {
        id,
        threadId: thread.id,
        userId: ownerId,
        model: "m",
        status,
        createdAt: new Date(START + minute * MINUTE),
      },
    });
    return thread.id;
  }

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    await db.user.create({ data: { id: "u-ann", name: "Ann", email: "ann@example.test" } });
    await db.user.create({ data: { id: "u-bob", email: "bob@example.test" } });
    await insertRun("run-1", "u-ann", "running", 1, "first");
    const parked = await insertRun("run-2", "u-bob", "pending", 2, "refund order 7");
    for (const [id, status] of [
      ["req-open-1", "open"],
      ["req-open-2", "open"],
      ["req-done", "answered"],
    ] as const) {
      await db.request.create({
        data: {
          id,
          requestId: `pnd-${id}`,
          runId: "run-2",
          threadId: parked,
          ownerId: "u-bob",
          toolCallId: id,
          toolName: "refund",
          args: {},
          kind: "approval",
          prompt: "Refund?",
          payload: {},
          status,
        },
      });
    }
    for (const [index, status] of ["done", "failed", "cancelled", "incomplete"].entries()) {
      await insertRun(`run-ended-${status}`, "u-ann", status, 10 + index);
    }
    await insertRun("run-3", "u-ann", "pending", 3, "");
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("lists only runs that have not ended, newest first, with owner and open requests", async () => {
    const { rows, total } = await listActiveRunsPage({ db: database.db, page: 1, pageSize: 10 });
    expect(total).toBe(3);
    expect(rows).toEqual([
      {
        id: "run-3",
        threadTitle: "",
        ownerId: "u-ann",
        ownerName: "Ann",
        status: "pending",
        startedAt: new Date(START + 3 * MINUTE).toISOString(),
        openRequests: 0,
      },
      {
        id: "run-2",
        threadTitle: "refund order 7",
        ownerId: "u-bob",
        ownerName: "bob@example.test",
        status: "pending",
        startedAt: new Date(START + 2 * MINUTE).toISOString(),
        openRequests: 2,
      },
      expect.objectContaining({ id: "run-1", status: "running", threadTitle: "first", openRequests: 0 }),
    ]);
  });

  it("pages without overlap", async () => {
    const first = await listActiveRunsPage({ db: database.db, page: 1, pageSize: 2 });
    const second = await listActiveRunsPage({ db: database.db, page: 2, pageSize: 2 });
    expect([first.total, second.total]).toEqual([3, 3]);
    expect(first.rows.map((row) => row.id)).toEqual(["run-3", "run-2"]);
    expect(second.rows.map((row) => row.id)).toEqual(["run-1"]);
  });
});
