import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkServerEntry, connectWithLibrary } from "./library-connection";
import type { McpConnection } from "./mcp-pool";
import { type ConnectUser, PerUserConnections } from "./per-user-tools";

// Real connections to the demo tracker over stdio; only the user's token handling is left out
// (these tests are about when a user's connection is open, not how it signs in).
const root = path.resolve(import.meta.dirname, "../../..");
const demoTracker = checkServerEntry("demo", {
  command: process.execPath,
  args: ["--import", "tsx", path.join(root, "scripts/demo-mcp-server.ts"), "--test-tools"],
  cwd: root,
});
const opened: Array<{ userId: string; closed: boolean }> = [];
const pools: PerUserConnections[] = [];

const connectUser: ConnectUser = async (name, _entry, userId) => {
  const connection = await connectWithLibrary(name, demoTracker);
  const record = { userId, closed: false };
  opened.push(record);
  return {
    ...connection,
    async close() {
      record.closed = true;
      await connection.close();
    },
  } satisfies McpConnection;
};

function poolWith(idleMs: number) {
  const pool = new PerUserConnections(
    "demo",
    { transport: "http", url: "http://unused.test/mcp", disabled: false },
    connectUser,
    {
      idleMs,
    },
  );
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  opened.length = 0;
});

describe("per-user MCP connections", () => {
  it("closes a user's connection once unused, and a later call, even through a tool handed out before, opens a new one", async () => {
    const pool = poolWith(400);
    const tools = await pool.forUser("u-1", undefined, 20_000);
    const echo = tools.find((tool) => tool.name === "demo_echo")!;
    expect((await echo.execute({ text: "one" }, {})).output).toBe("one");
    expect(opened).toEqual([{ userId: "u-1", closed: false }]);

    await expect.poll(() => opened[0]!.closed, { timeout: 5_000 }).toBe(true);
    expect(pool.openCount()).toBe(0);

    expect((await echo.execute({ text: "two" }, {})).output).toBe("two");
    expect(opened).toEqual([
      { userId: "u-1", closed: true },
      { userId: "u-1", closed: false },
    ]);
  }, 30_000);

  it("never closes a connection under a call, and keeps each user's own", async () => {
    const pool = poolWith(300);
    const [mine, theirs] = await Promise.all([
      pool.forUser("u-1", undefined, 20_000),
      pool.forUser("u-2", undefined, 20_000),
    ]);
    expect(opened.map((record) => record.userId).sort()).toEqual(["u-1", "u-2"]);
    const mineOpened = opened.find((record) => record.userId === "u-1")!;
    const theirsOpened = opened.find((record) => record.userId === "u-2")!;

    // A call that outlasts the idle time several times over finishes on the connection it started on.
    const slow = mine.find((tool) => tool.name === "demo_slow")!;
    const result = await slow.execute({ ms: 1500 }, {});
    expect(result.output).toBe("waited 1500 ms");
    expect(mineOpened.closed).toBe(false);

    // The other user's connection, unused meanwhile, was closed; theirs alone.
    expect(theirsOpened.closed).toBe(true);
    expect(pool.openCount()).toBe(1);
    expect(
      (await theirs.find((tool) => tool.name === "demo_echo")!.execute({ text: "back" }, {})).output,
    ).toBe("back");
    expect(opened.at(-1)).toEqual({ userId: "u-2", closed: false });
    expect(opened).toHaveLength(3);
  }, 30_000);
});
