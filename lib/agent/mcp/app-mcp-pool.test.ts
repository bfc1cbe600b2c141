import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "@/lib/db/mcp-servers";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { loadOAuthRuntime, type OAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { createAppMcpPool, mcpConfigPath } from "./app-mcp-pool";
import { sealServerHeaders } from "./server-headers";
import {
  closedPortUrl,
  type RunningServer,
  referenceStdioEntry,
  startReferenceHttpServer,
} from "./testing/reference-server";

const keys = { encryption: randomBytes(32), state: randomBytes(32) };
let database: TestDatabase;
let db: Db;
let http: RunningServer;
let dir: string;
let runtime: OAuthRuntime;
// The reference servers listen on this machine: private addresses are allowed (ADR 0056).
const onThisMachine = () => runtime;

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  db = database.db as Db;
  http = await startReferenceHttpServer();
  dir = mkdtempSync(path.join(tmpdir(), "toolnexus-mcp-config-"));
  runtime = loadOAuthRuntime({ env: { TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE: "1" }, dataDir: dir });
});
afterAll(async () => {
  await http?.stop();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function configFile(content: unknown): string {
  counter += 1;
  const file = path.join(dir, `mcp-${counter}.json`);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

async function addServer(name: string, url: string, headers: Record<string, string> = {}, disabled = false) {
  const created = await createMcpServer({
    db,
    server: {
      name,
      url,
      headerNames: Object.keys(headers),
      headersEnc: sealServerHeaders(name, headers, keys),
    },
    actorId: "admin-1",
  });
  if (created.outcome !== "created") throw new Error("name taken");
  if (disabled) await db.mcpServer.update({ where: { id: created.id }, data: { disabled: true } });
  return created.id;
}

const byName = <T extends { name: string }>(servers: T[]): Record<string, T> =>
  Object.fromEntries(servers.map((server) => [server.name, server]));

describe("the app's MCP servers", () => {
  it("starts with the good servers of a config file that has a bad one, naming the file and the field", async () => {
    const file = configFile({
      mcpServers: {
        local: referenceStdioEntry,
        broken: { command: 42 },
        resting: { ...referenceStdioEntry, disabled: true },
      },
    });
    await addServer("remote", http.url, { "X-Api-Key": "k-123" });
    const pool = createAppMcpPool({ db, keys: () => keys, runtime: onThisMachine, configFile: file });
    try {
      const tools = (await pool.tools()).map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(["local_echo", "remote_echo"]));
      const servers = byName((await pool.status()).servers);
      expect(servers.local).toMatchObject({ origin: "config", status: "connected" });
      expect(servers.remote).toMatchObject({ origin: "admin", status: "connected" });
      expect(servers.resting).toMatchObject({ status: "disabled", toolCount: 0 });
      expect(servers.broken).toMatchObject({ status: "failed", toolCount: 0 });
      const error = servers.broken?.error ?? "";
      expect(error).toContain(file);
      expect(error).toMatch(/command/);
    } finally {
      await pool.close();
      await db.mcpServer.deleteMany();
    }
  });

  it("still serves the admins' servers when the config file is not JSON, and says why", async () => {
    const file = configFile('{ "mcpServers": { "local": ');
    await addServer("remote", http.url);
    const pool = createAppMcpPool({ db, keys: () => keys, runtime: onThisMachine, configFile: file });
    try {
      expect((await pool.tools()).map((tool) => tool.name)).toContain("remote_echo");
      const status = await pool.status();
      expect(status.configError).toContain(file);
      expect(status.configError).toMatch(/not valid JSON/);
    } finally {
      await pool.close();
      await db.mcpServer.deleteMany();
    }
  });

  it("shows an unreachable server as failed with its last error, a disabled one as disabled, and a name clash", async () => {
    const file = configFile({ mcpServers: { shadowed: referenceStdioEntry } });
    await addServer("down", await closedPortUrl());
    await addServer("paused", http.url, {}, true);
    await addServer("shadowed", http.url);
    const pool = createAppMcpPool({ db, keys: () => keys, runtime: onThisMachine, configFile: file });
    try {
      const servers = (await pool.status()).servers;
      expect(servers.map(({ name, origin, status }) => ({ name, origin, status }))).toEqual([
        { name: "shadowed", origin: "config", status: "connected" },
        { name: "down", origin: "admin", status: "failed" },
        { name: "paused", origin: "admin", status: "disabled" },
        { name: "shadowed", origin: "admin", status: "failed" },
      ]);
      expect(servers[1]!.error).toBeTruthy();
      expect(servers[3]!.error).toMatch(/config file defines a server of this name/);
    } finally {
      await pool.close();
      await db.mcpServer.deleteMany();
    }
  });

  it("picks up an admin's change at the next run, without a restart", async () => {
    const pool = createAppMcpPool({ db, keys: () => keys, runtime: onThisMachine });
    try {
      expect(await pool.tools()).toEqual([]);
      const id = await addServer("late", http.url);
      expect((await pool.tools()).map((tool) => tool.name)).toContain("late_echo");
      await db.mcpServer.update({ where: { id }, data: { disabled: true } });
      expect(await pool.tools()).toEqual([]);
    } finally {
      await pool.close();
      await db.mcpServer.deleteMany();
    }
  });
});

describe("mcpConfigPath", () => {
  it("is TOOLNEXUS_MCP_CONFIG, the demo config in demo mode, or none", () => {
    expect(mcpConfigPath({ TOOLNEXUS_MCP_CONFIG: "/etc/mcp.json" })).toBe("/etc/mcp.json");
    expect(mcpConfigPath({ TOOLNEXUS_DEMO: "1" })).toBe(path.resolve("mcp.demo.json"));
    expect(mcpConfigPath({ TOOLNEXUS_DEMO: "1", TOOLNEXUS_MCP_CONFIG: "" })).toBeUndefined();
    expect(mcpConfigPath({ TOOLNEXUS_DEMO: "0" })).toBeUndefined();
  });
});
