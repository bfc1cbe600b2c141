import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ToolnexusError } from "../errors";
import { parseMcpServer } from "./config";
import { loadMcpConfig, validateMcpConfig } from "./config-file";

describe("validateMcpConfig", () => {
  it("normalizes stdio and HTTP entries in the format other MCP clients use", () => {
    const parsed = validateMcpConfig({
      mcpServers: {
        tracker: { command: "node", args: ["server.js"], env: { TOKEN: "x" }, cwd: "/srv" },
        remote: {
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer k" },
          timeoutMs: 5000,
        },
        off: { command: "node", disabled: true },
      },
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers).toEqual([
      {
        name: "tracker",
        config: {
          transport: "stdio",
          command: "node",
          args: ["server.js"],
          env: { TOKEN: "x" },
          cwd: "/srv",
          disabled: false,
        },
      },
      {
        name: "remote",
        config: {
          transport: "http",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer k" },
          timeoutMs: 5000,
          disabled: false,
        },
      },
      { name: "off", config: { transport: "stdio", command: "node", args: [], disabled: true } },
    ]);
  });

  it("reads opencode's format: command as an array, environment, enabled, timeout, a tools filter", () => {
    const parsed = validateMcpConfig({
      mcp: {
        local: {
          type: "local",
          command: ["npx", "-y", "server"],
          environment: { A: "1" },
          enabled: true,
          timeout: 400,
          tools: { a: true },
        },
        remote: { type: "remote", url: "https://mcp.example.com/mcp", enabled: false, tools: {} },
        both: { command: "x", enabled: true, disabled: true },
      },
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers).toEqual([
      {
        name: "local",
        config: {
          transport: "stdio",
          command: "npx",
          args: ["-y", "server"],
          env: { A: "1" },
          disabled: false,
          timeoutMs: 400,
          connectTimeoutMs: 400,
          tools: { a: true },
        },
      },
      { name: "remote", config: { transport: "http", url: "https://mcp.example.com/mcp", disabled: true } },
      { name: "both", config: { transport: "stdio", command: "x", args: [], disabled: true } },
    ]);
  });

  it("reports a malformed entry by file and field and keeps the other servers", () => {
    const parsed = validateMcpConfig(
      JSON.stringify({ mcpServers: { good: { command: "node" }, bad: { command: "node", args: "x" } } }),
      { source: "/etc/mcp.json" },
    );
    expect(parsed.servers.map((s) => s.name)).toEqual(["good"]);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]!.name).toBe("bad");
    expect(parsed.problems[0]!.error.message).toMatch(/^\/etc\/mcp\.json: mcpServers\.bad\.args: /);
  });

  it.each([
    [{ url: "ftp://x/mcp" }, /mcpServers\.s\.url: must be an http\(s\) URL/],
    [{ url: "not a url" }, /mcpServers\.s\.url: must be an http\(s\) URL/],
    [{ command: "" }, /mcpServers\.s\.command: /],
    [{ command: "a", url: "http://x/mcp" }, /not both/],
    [{ args: [] }, /needs "command" \(stdio\) or "url" \(HTTP\)/],
    [{ command: "a", shell: true }, /mcpServers\.s: Unrecognized key/],
    [{ url: "http://x/mcp", headers: { a: 1 } }, /mcpServers\.s\.headers\.a: /],
    [{ command: "a", timeoutMs: -1 }, /mcpServers\.s\.timeoutMs: /],
    [{ command: "a", timeout: 1, timeoutMs: 1 }, /give "timeoutMs" or "timeout", not both/],
    [{ command: "a", env: {}, environment: {} }, /give "env" or "environment", not both/],
    [{ command: ["a", "b"], args: ["c"] }, /in "command" or in "args", not both/],
    [{ command: [] }, /mcpServers\.s\.command: /],
    [{ command: "a", tools: { x: "yes" } }, /mcpServers\.s\.tools\.x: /],
    ["node", /mcpServers\.s: must be an object/],
  ])("refuses %j with an error naming the field", (entry, message) => {
    const result = parseMcpServer("s", entry, { source: "cfg.json" });
    expect(result).toBeInstanceOf(ToolnexusError);
    expect((result as ToolnexusError).message).toMatch(/^cfg\.json: /);
    expect((result as ToolnexusError).message).toMatch(message);
  });

  it("refuses a server name that cannot prefix tool names", () => {
    const result = parseMcpServer("my server", { command: "a" });
    expect((result as ToolnexusError).message).toMatch(/mcpServers\.my server: a server name uses only/);
  });

  it("throws for a file that is not a config at all, naming the file", () => {
    expect(() => validateMcpConfig("{ nope", { source: "/x/mcp.json" })).toThrow(
      /^\/x\/mcp\.json: not valid JSON/,
    );
    expect(() => validateMcpConfig({ mcpServers: [] }, { source: "a.json" })).toThrow(
      /a\.json: mcpServers: must be an object/,
    );
    expect(() => validateMcpConfig([])).toThrow(ToolnexusError);
  });

  it("loads a file by path, and names a file it cannot read", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-config-"));
    try {
      const file = path.join(dir, "mcp.json");
      writeFileSync(file, JSON.stringify({ mcpServers: { a: { url: "http://127.0.0.1:1/mcp" } } }));
      expect((await loadMcpConfig(file)).servers[0]!.config.transport).toBe("http");
      await expect(loadMcpConfig(path.join(dir, "missing.json"))).rejects.toThrow(
        /missing\.json: cannot read/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
