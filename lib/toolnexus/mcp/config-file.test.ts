// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} here is config text the library expands, not a template.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expandEnvHeaders, parseMcpConfig, validateMcpConfig } from "./config-file";

const servers = { one: { command: ["node", "s.js"] }, two: { url: "http://127.0.0.1:1/mcp" } };

afterEach(() => {
  delete process.env.MCP_TEST_TOKEN;
});

describe("MCP config files", () => {
  it("finds the servers under mcpServers, servers or mcp, or as the bare map", () => {
    for (const config of [{ mcpServers: servers }, { servers }, { mcp: servers }, servers]) {
      expect(parseMcpConfig(config)).toEqual(servers);
      expect(validateMcpConfig(config).servers.map((s) => s.name)).toEqual(["one", "two"]);
    }
    // Keys that sit beside the servers in a bare map are not servers.
    expect(parseMcpConfig({ ...servers, builtins: false, agents: [] })).toEqual(servers);
  });

  it("takes a string as a path to the file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-config-"));
    try {
      const file = path.join(dir, "mcp.json");
      writeFileSync(file, JSON.stringify({ servers }));
      expect(parseMcpConfig(file)).toEqual(servers);
      expect(() => parseMcpConfig(path.join(dir, "missing.json"))).toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("expands ${NAME} in header values from the environment, unset ones to empty", () => {
    process.env.MCP_TEST_TOKEN = "t0ken";
    expect(
      expandEnvHeaders({ Authorization: "Bearer ${MCP_TEST_TOKEN}", X: "${MCP_UNSET_VAR}-$HOME" }),
    ).toEqual({
      Authorization: "Bearer t0ken",
      X: "-$HOME",
    });
    expect(expandEnvHeaders(undefined)).toBeUndefined();
  });

  it("expands a config's headers when it is read, never a single server added on its own", () => {
    process.env.MCP_TEST_TOKEN = "t0ken";
    const headers = { Authorization: "Bearer ${MCP_TEST_TOKEN}" };
    const [entry] = validateMcpConfig({
      mcpServers: { r: { url: "http://127.0.0.1:1/mcp", headers } },
    }).servers;
    expect(entry!.config).toMatchObject({ headers: { Authorization: "Bearer t0ken" } });
    expect(headers.Authorization).toBe("Bearer ${MCP_TEST_TOKEN}");
  });
});
