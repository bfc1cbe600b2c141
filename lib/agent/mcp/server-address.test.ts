import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "@/lib/db/mcp-servers";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import type { AddressPolicy } from "@/lib/http/outbound-address";
import { isPublicAddress } from "@/lib/http/outbound-address";
import { createOutboundFetch } from "@/lib/http/outbound-fetch";
import { startLoopbackServer } from "@/lib/http/testing/loopback-server";
import type { OAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { createAppMcpPool } from "./app-mcp-pool";
import { sealServerHeaders } from "./server-headers";
import { type RunningServer, startReferenceHttpServer } from "./testing/reference-server";

// Where the app's MCP connections may go (ADR 0056), against real servers on this machine: an
// admin's URL that reaches inward is refused on every connection, whatever it is spelt as, and
// what the admin page shows of a failure is a class or a status, never the server's reply.

const REFUSED = "The address was refused by the outbound address policy";
const keys = { encryption: randomBytes(32), state: randomBytes(32) };
let database: TestDatabase;
let db: Db;
let reference: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  db = database.db as Db;
  reference = await startReferenceHttpServer();
});
afterAll(async () => {
  await reference?.stop();
  await database?.drop();
});

function runtimeWith(policy: AddressPolicy): () => OAuthRuntime {
  const runtime = {
    registry: new Map(),
    keys,
    appUrl: "http://127.0.0.1:9",
    outboundFetch: createOutboundFetch({ policy }),
  };
  return () => runtime;
}

async function addServers(urls: Record<string, string>) {
  await db.mcpServer.deleteMany();
  for (const [name, url] of Object.entries(urls)) {
    await createMcpServer({
      db,
      server: { name, url, headerNames: [], headersEnc: sealServerHeaders(name, {}, keys) },
      actorId: "admin-1",
    });
  }
}

async function statusesWith(policy: AddressPolicy) {
  const pool = createAppMcpPool({ db, keys: () => keys, runtime: runtimeWith(policy) });
  try {
    return Object.fromEntries((await pool.status()).servers.map((server) => [server.name, server]));
  } finally {
    await pool.close();
  }
}

describe("the addresses of the app's MCP servers", () => {
  it("refuses a listening server on this machine, by literal, by name and in every embedded form; it gets nothing", async () => {
    const listening = await startLoopbackServer();
    try {
      const { port } = listening;
      await addServers({
        literal: `http://127.0.0.1:${port}/mcp`,
        named: `http://localhost:${port}/mcp`,
        host: `http://${hostname()}:${port}/mcp`,
        metadata: "http://169.254.169.254/latest/meta-data/",
        documentation: `http://192.0.2.2:${port}/mcp`,
        mapped: `http://[::ffff:127.0.0.1]:${port}/mcp`,
        compatible: `http://[::7f00:1]:${port}/mcp`,
        nat64: `http://[64:ff9b::127.0.0.1]:${port}/mcp`,
        sixToFour: `http://[2002:7f00:1::]:${port}/mcp`,
      });
      const servers = await statusesWith(isPublicAddress);
      for (const name of [
        "literal",
        "named",
        "host",
        "metadata",
        "documentation",
        "mapped",
        "compatible",
        "nat64",
        "sixToFour",
      ]) {
        expect(servers[name], name).toMatchObject({ status: "failed", error: REFUSED });
      }
      expect(listening.seen).toEqual({ connections: 0, requests: 0 });
    } finally {
      await listening.close();
    }
  });

  it("connects to the same kind of server, by literal and by name, when private addresses are allowed", async () => {
    await addServers({ literal: reference.url, named: reference.url.replace("127.0.0.1", "localhost") });
    const servers = await statusesWith(() => true);
    expect(servers.literal).toMatchObject({ status: "connected" });
    expect(servers.named).toMatchObject({ status: "connected" });
  });

  it("checks the address again when it reconnects", async () => {
    await addServers({ later: reference.url });
    let allowed = false;
    const pool = createAppMcpPool({ db, keys: () => keys, runtime: runtimeWith(() => allowed), retryMs: 0 });
    try {
      expect((await pool.status()).servers[0]).toMatchObject({ status: "failed", error: REFUSED });
      allowed = true;
      expect((await pool.status()).servers[0]).toMatchObject({ status: "connected" });
    } finally {
      await pool.close();
    }
  });

  it("shows the status a server answered with, never its reply", async () => {
    const failing = await startLoopbackServer((_request, response) =>
      response.writeHead(500, { "content-type": "text/plain" }).end("internal: db password hunter2"),
    );
    try {
      await addServers({ failing: failing.url("/mcp") });
      const servers = await statusesWith(() => true);
      expect(servers.failing).toMatchObject({ status: "failed", error: "The server answered HTTP 500" });
      expect(failing.seen.requests).toBeGreaterThan(0);
    } finally {
      await failing.close();
    }
  });
});
