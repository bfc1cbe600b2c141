import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkServerEntry, connectWithLibrary } from "./library-connection";
import { type ConnectServer, createMcpPool, type DesiredServer, type McpPool } from "./mcp-pool";
import {
  closedPortUrl,
  type RunningServer,
  referenceStdioEntry,
  startReferenceHttpServer,
} from "./testing/reference-server";

let http: RunningServer;
beforeAll(async () => {
  http = await startReferenceHttpServer();
});
afterAll(async () => {
  await http?.stop();
});

/** The library's connect, counting how often each server is connected. */
function countingConnect(): { connect: ConnectServer; count: Map<string, number> } {
  const count = new Map<string, number>();
  return {
    count,
    connect: async (name, entry) => {
      count.set(name, (count.get(name) ?? 0) + 1);
      return connectWithLibrary(name, entry);
    },
  };
}

function enabled(name: string, raw: Record<string, unknown>): DesiredServer {
  const entry = checkServerEntry(name, raw);
  return { name, origin: "config", status: "enabled", entry, key: JSON.stringify(entry) };
}

const names = async (pool: McpPool) => (await pool.tools()).map((tool) => tool.name);

describe("the MCP pool", () => {
  it("connects once and serves every run from that connection, over stdio and HTTP", async () => {
    const { connect, count } = countingConnect();
    const pool = createMcpPool({
      connect,
      loadServers: async () => ({
        servers: [enabled("local", referenceStdioEntry), enabled("remote", { url: http.url })],
      }),
    });
    try {
      const first = await pool.tools();
      const second = await pool.tools();
      expect(first.map((tool) => tool.name)).toEqual(expect.arrayContaining(["local_echo", "remote_echo"]));
      // The same tool objects: nothing was listed or connected again for the second run.
      expect(second).toEqual(first);
      expect(second[0]).toBe(first[0]);
      expect(Object.fromEntries(count)).toEqual({ local: 1, remote: 1 });
      const echo = first.find((tool) => tool.name === "remote_echo")!;
      expect(await echo.execute({ message: "hello" })).toMatchObject({
        isError: false,
        output: expect.stringContaining("hello"),
      });
      const status = await pool.status();
      expect(status.servers).toEqual([
        {
          name: "local",
          origin: "config",
          status: "connected",
          toolCount: first.filter((t) => t.name.startsWith("local_")).length,
        },
        {
          name: "remote",
          origin: "config",
          status: "connected",
          toolCount: first.filter((t) => t.name.startsWith("remote_")).length,
        },
      ]);
    } finally {
      await pool.close();
    }
  });

  it("applies a changed config to the next run: removed and disabled servers close, added ones connect", async () => {
    const { connect, count } = countingConnect();
    let servers: DesiredServer[] = [enabled("a", { url: http.url }), enabled("b", referenceStdioEntry)];
    const pool = createMcpPool({ connect, loadServers: async () => ({ servers }) });
    try {
      expect((await names(pool)).some((name) => name.startsWith("b_"))).toBe(true);
      servers = [{ name: "a", origin: "admin", status: "disabled" }, enabled("c", { url: http.url })];
      const now = await names(pool);
      expect(now.some((name) => name.startsWith("a_") || name.startsWith("b_"))).toBe(false);
      expect(now).toContain("c_echo");
      expect((await pool.status()).servers.map(({ name, status }) => ({ name, status }))).toEqual([
        { name: "a", status: "disabled" },
        { name: "c", status: "connected" },
      ]);
      // Switching it back on opens a new connection; the unchanged one stays.
      servers = [enabled("a", { url: http.url }), enabled("c", { url: http.url })];
      expect(await names(pool)).toContain("a_echo");
      expect(Object.fromEntries(count)).toEqual({ a: 2, b: 1, c: 1 });
    } finally {
      await pool.close();
    }
  });

  it("reports an unreachable server as failed with its error, keeps the others, and retries it later", async () => {
    const { connect, count } = countingConnect();
    let clock = 0;
    const pool = createMcpPool({
      connect,
      now: () => clock,
      retryMs: 1000,
      loadServers: async () => ({
        servers: [enabled("down", { url: await unreachable }), enabled("up", { url: http.url })],
      }),
    });
    const unreachable = closedPortUrl();
    try {
      const tools = await names(pool);
      expect(tools).toContain("up_echo");
      expect(tools.some((name) => name.startsWith("down_"))).toBe(false);
      const down = (await pool.status()).servers.find((server) => server.name === "down");
      expect(down).toMatchObject({ status: "failed", toolCount: 0, error: expect.any(String) });
      expect(down?.error).not.toBe("");
      await pool.tools();
      expect(count.get("down")).toBe(1);
      clock = 1000;
      await pool.tools();
      expect(count.get("down")).toBe(2);
      expect(count.get("up")).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it("reports servers the config could not describe, without connecting them", async () => {
    const { connect, count } = countingConnect();
    const pool = createMcpPool({
      connect,
      loadServers: async () => ({
        servers: [
          {
            name: "bad",
            origin: "config",
            status: "invalid",
            error: "mcp.json: mcpServers.bad.url is wrong",
          },
        ],
        configError: "other.json: not valid JSON",
      }),
    });
    try {
      expect(await pool.tools()).toEqual([]);
      expect(await pool.status()).toEqual({
        servers: [
          {
            name: "bad",
            origin: "config",
            status: "failed",
            toolCount: 0,
            error: "mcp.json: mcpServers.bad.url is wrong",
          },
        ],
        configError: "other.json: not valid JSON",
      });
      expect(count.size).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
