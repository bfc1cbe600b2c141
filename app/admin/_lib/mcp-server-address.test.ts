import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import { checkServerEntry } from "@/lib/agent/mcp/library-connection";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { toPublicError } from "@/lib/errors";
import { addRemoteServer, type McpServerDeps } from "./manage-mcp-servers";

// An admin's MCP server URL that points inward is refused when it is added, unless the outbound
// setting allows private addresses (ADR 0056); every connection checks again (lib/agent/mcp).

const keys = { encryption: randomBytes(32), state: randomBytes(32) };
const INWARD = [
  "http://127.0.0.1:4000/mcp",
  "http://localhost:4000/mcp",
  `http://${hostname()}.localhost/mcp`,
  "http://169.254.169.254/latest/meta-data/",
  "http://10.0.0.5/mcp",
  "http://192.0.2.2/mcp",
  "http://198.51.100.7/mcp",
  "http://203.0.113.9/mcp",
  "http://198.18.0.1/mcp",
  "http://[::1]/mcp",
  "http://[::ffff:127.0.0.1]/mcp",
  "http://[::7f00:1]/mcp",
  "http://[64:ff9b::127.0.0.1]/mcp",
  "http://[2002:7f00:1::]/mcp",
  "http://[2001:db8::1]/mcp",
];

describe.each<TestProvider>(["sqlite", "postgres"])(
  "the address of an admin's MCP server on %s",
  (provider) => {
    let database: TestDatabase;
    let db: Db;
    const deps = (allowPrivate: boolean): McpServerDeps => ({
      db,
      keys: () => keys,
      configNames: async () => [],
      checkEntry: checkServerEntry,
      allowPrivate,
    });
    beforeAll(async () => {
      database = await createTestDatabase(provider);
      db = database.db as Db;
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("refuses every inward address, writing nothing, unless private addresses are allowed", async () => {
      const admin = await newUser(db, "admin");
      for (const [index, url] of INWARD.entries()) {
        const error = await addRemoteServer(
          { actor: admin, input: { name: `s${index}`, url } },
          deps(false),
        ).then(() => null, toPublicError);
        expect(error, url).toMatchObject({ code: "bad_request:input", issues: [{ path: "/url" }] });
        expect(error?.message, url).toMatch(/private network or reserved/);
      }
      expect(await db.mcpServer.count()).toBe(0);
      for (const [index, url] of INWARD.entries()) {
        await addRemoteServer({ actor: admin, input: { name: `s${index}`, url } }, deps(true));
      }
      expect(await db.mcpServer.count()).toBe(INWARD.length);
    });

    it("takes a public address", async () => {
      const admin = await newUser(db, "admin");
      const added = await addRemoteServer(
        { actor: admin, input: { name: "public", url: "https://mcp.example.com/mcp" } },
        deps(false),
      );
      expect(added.name).toBe("public");
    });
  },
);
