import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createOutboundFetch } from "@/lib/http/outbound-fetch";
import { startLoopbackServer } from "@/lib/http/testing/loopback-server";
import { beginMcpAuthorization } from "./begin-mcp-authorization";
import type { OAuthRuntime } from "./oauth-runtime";
import { createParkedAuthorization } from "./testing/oauth-fixtures";

// An MCP server's OAuth metadata (RFC 9728, RFC 8414) may name any URL: the sign-in reaches it
// only through the outbound address policy (ADR 0056). Here 127.0.0.1 stands for a public server
// and 127.0.0.2 for an internal service, which must never see a request.

type Loopback = Awaited<ReturnType<typeof startLoopbackServer>>;

describe("an MCP sign-in whose metadata points inward", () => {
  let database: TestDatabase;
  let db: DbClient;
  let inward: Loopback;
  let server: Loopback;
  const runtime: OAuthRuntime = {
    registry: new Map(),
    keys: { encryption: randomBytes(32), state: randomBytes(32) },
    appUrl: "http://127.0.0.1:9",
    outboundFetch: createOutboundFetch({ policy: (address) => address === "127.0.0.1" }),
  };

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    db = database.db;
    inward = await startLoopbackServer((_request, response) => response.end("{}"), "127.0.0.2");
    const json = (body: unknown) => JSON.stringify(body);
    server = await startLoopbackServer((request, response) => {
      const own = `http://127.0.0.1:${server.port}`;
      const internal = `http://127.0.0.2:${inward.port}`;
      const path = request.url ?? "/";
      response.setHeader("content-type", "application/json");
      if (path.startsWith("/.well-known/oauth-protected-resource")) {
        // /a: the authorization server itself is internal; /b: it is public, its endpoints are not.
        const a = path.includes("/a/");
        response.end(
          json({ resource: `${own}${a ? "/a" : "/b"}/mcp`, authorization_servers: [a ? internal : own] }),
        );
      } else if (path.startsWith("/.well-known/oauth-authorization-server")) {
        response.end(
          json({
            issuer: own,
            authorization_endpoint: `${own}/authorize`,
            token_endpoint: `${internal}/token`,
            registration_endpoint: `${internal}/register`,
            response_types_supported: ["code"],
            code_challenge_methods_supported: ["S256"],
          }),
        );
      } else {
        response.writeHead(404).end("{}");
      }
    });
  });
  afterAll(async () => {
    await Promise.all([inward?.close(), server?.close()]);
    await database?.drop();
  });

  it.each(["a", "b"])("refuses the internal endpoint (%s) and sends it nothing", async (which) => {
    const name = `inward-${which}`;
    const fixture = await createParkedAuthorization(db, { wireId: `w-${which}`, provider: `mcp:${name}` });
    const started = beginMcpAuthorization({
      db,
      runtime,
      userId: fixture.user.id,
      server: { name, url: `http://127.0.0.1:${server.port}/${which}/mcp`, oauth: {} },
      serverName: name,
      wireRequestId: `w-${which}`,
    });
    await expect(started).rejects.toThrow(/refused by the outbound address policy/);
    expect(server.seen.requests).toBeGreaterThan(0);
    expect(inward.seen).toEqual({ connections: 0, requests: 0 });
  });
});
