import type { Tool } from "toolnexus";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkServerEntry, connectWithLibrary } from "./library-connection";
import type { McpConnection } from "./mcp-pool";
import { type ConnectUser, PerUserConnections } from "./per-user-tools";
import { type RunningServer, startReferenceHttpServer } from "./testing/reference-server";

// Real connections to the protocol's reference server; only the user's token handling is left
// out (these tests are about when a user's connection is open, not how it signs in). One server
// over Streamable HTTP serves every connection as a session of its own: a process per
// connection would take seconds each on a loaded machine, longer than the idle times here.
let server: RunningServer;
beforeAll(async () => {
  server = await startReferenceHttpServer();
});
afterAll(async () => {
  await server?.stop();
});
const opened: Array<{ userId: string; closed: boolean }> = [];
const pools: PerUserConnections[] = [];

const connectUser: ConnectUser = async (name, _entry, userId) => {
  const connection = await connectWithLibrary(name, checkServerEntry(name, { url: server.url }));
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

const echoed = async (tools: Tool[], message: string) =>
  (await tools.find((tool) => tool.name === "demo_echo")!.execute({ message }, {})).output;

describe("per-user MCP connections", () => {
  it("closes a user's connection once unused, and a later call, even through a tool handed out before, opens a new one", async () => {
    const pool = poolWith(400);
    const tools = await pool.forUser("u-1", undefined, 20_000);
    expect(await echoed(tools, "one")).toContain("one");
    expect(opened).toEqual([{ userId: "u-1", closed: false }]);

    await expect.poll(() => opened[0]!.closed, { timeout: 10_000 }).toBe(true);
    expect(pool.openCount()).toBe(0);

    expect(await echoed(tools, "two")).toContain("two");
    expect(opened).toEqual([
      { userId: "u-1", closed: true },
      { userId: "u-1", closed: false },
    ]);
  });

  it("never closes a connection under a call, and keeps each user's own", async () => {
    const pool = poolWith(300);
    // The other user's first, then mine, whose call starts as its tools are handed over: no
    // sweep can come between, however long either connection took to open.
    const theirs = await pool.forUser("u-2", undefined, 20_000);
    const mine = await pool.forUser("u-1", undefined, 20_000);
    expect(opened.map((record) => record.userId)).toEqual(["u-2", "u-1"]);
    const [theirsOpened, mineOpened] = opened as [(typeof opened)[0], (typeof opened)[0]];
    const slow = mine.find((tool) => tool.name === "demo_trigger-long-running-operation")!;
    // A call that outlasts the idle time several times over; what is seen is as it ends.
    const call = slow.execute({ duration: 1.5, steps: 1 }, {}).then((result) => ({
      output: result.output,
      mineClosed: mineOpened.closed,
    }));

    // The other user's connection, unused meanwhile, is closed; theirs alone.
    await expect.poll(() => theirsOpened.closed, { timeout: 10_000 }).toBe(true);
    const ended = await call;
    expect(ended.output).toContain("Long running operation completed");
    expect(ended.mineClosed).toBe(false);
    expect(opened).toHaveLength(2);

    expect(await echoed(theirs, "back")).toContain("back");
    expect(opened.at(-1)).toEqual({ userId: "u-2", closed: false });
    expect(opened).toHaveLength(3);
  });
});
