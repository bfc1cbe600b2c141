import { afterAll, describe, expect, it, vi } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import type { McpSignInServer } from "@/lib/oauth/mcp-client-provider";
import { providerErrorWords } from "@/lib/oauth/provider-error";
import { mcpSignInSteps } from "@/lib/oauth/testing/mcp-sign-in-env";
import { createParkedAuthorization } from "@/lib/oauth/testing/oauth-fixtures";
import { type OAuthTestEnv, withOAuthTestEnv } from "@/lib/oauth/testing/oauth-test-env";
import { withUserAuthorization } from "./app-mcp-pool";
import { connectWithLibrary } from "./library-connection";
import type { McpConnection } from "./mcp-pool";
import { recordWarnings } from "./testing/recording-mcp-run";

// A server that refuses even to list its tools without a token: the user's connection cannot
// list, a call by name asks for the sign-in, and once signed in the same connection connects
// again and the call goes through.

describe("an MCP server that lists nothing before the sign-in", () => {
  let env: OAuthTestEnv;
  let db: DbClient;
  let server: McpSignInServer;
  const open: McpConnection[] = [];
  withOAuthTestEnv(
    (ready) => {
      env = ready.env;
      db = ready.db;
      server = { name: "bank", url: `${env.server.issuer}/mcp`, oauth: {} };
    },
    { mcpProtectAll: true },
  );
  const steps = mcpSignInSteps(() => ({ db, runtime: env.runtime, server }));
  afterAll(async () => {
    await Promise.all(open.map((connection) => connection.close()));
  });

  it("asks for the sign-in, then connects again and calls", async () => {
    const entry = { transport: "http" as const, url: server.url, disabled: false, oauth: {} };
    const fixture = await createParkedAuthorization(db, { wireId: "placeholder", provider: "mcp:bank" });
    const connection = await connectWithLibrary(
      "bank",
      withUserAuthorization("bank", entry, fixture.user.id, { db, runtime: () => env.runtime }),
    );
    open.push(connection);
    expect(connection.state()).toMatchObject({ status: "failed", error: "Waiting for the user to sign in" });
    expect(connection.tools()).toEqual([]);

    const first = await connection.call("bank_recent_transactions", {}, { idempotencyKey: "r1:c1" });
    const pending = first.metadata?.pending as { id: string; kind: string } | undefined;
    expect(pending?.kind).toBe("authorization");
    await db.request.update({ where: { id: fixture.request.id }, data: { requestId: pending!.id } });
    const url = await steps.begin(fixture.user.id, pending!.id);
    const back = await steps.consent(url);
    await steps.complete({ id: fixture.user.id, role: "user" }, back.searchParams);

    const result = await connection.call("bank_recent_transactions", {}, { idempotencyKey: "r1:c1" });
    expect(result).toMatchObject({ isError: false });
    expect(result.output).toContain("Dana Demo:");
    expect(connection.state().status).toBe("connected");
  });
});

describe("an MCP server that lists nothing before a sign-in that fails", () => {
  // Its protected resource metadata names a resource whose address reads as a message.
  const marker = "555-0100";
  let env: OAuthTestEnv;
  let db: DbClient;
  const open: McpConnection[] = [];
  withOAuthTestEnv(
    (ready) => {
      env = ready.env;
      db = ready.db;
    },
    { mcpProtectAll: true, mcpAdvertisedResource: `http://127.0.0.1:1/?Call%20${marker}%20now` },
  );
  afterAll(async () => {
    vi.restoreAllMocks();
    await Promise.all(open.map((connection) => connection.close()));
  });

  async function connectAs(email: string): Promise<McpConnection> {
    const entry = { transport: "http" as const, url: `${env.server.issuer}/mcp`, disabled: false, oauth: {} };
    const user = await db.user.create({ data: { email, role: "user" } });
    const connection = await connectWithLibrary(
      "bank",
      withUserAuthorization("bank", entry, user.id, { db, runtime: () => env.runtime }),
    );
    open.push(connection);
    return connection;
  }

  it("tells a call the sign-in's fixed words, as a failure during a call would", async () => {
    const connection = await connectAs("dana@example.test");
    expect(connection.state().status).toBe("failed");

    const result = await connection.call("bank_recent_transactions", {}, { idempotencyKey: "r1:c1" });
    expect(result).toEqual({
      output: providerErrorWords("bank", undefined),
      isError: true,
      metadata: { server: "bank" },
    });
    expect(JSON.stringify(result)).not.toContain(marker);
  });

  it("logs each failed connect once, a call's with the step and what the server said", async () => {
    const warned = recordWarnings();
    const connection = await connectAs("alex@example.test");
    expect(warned.filter((line) => line.includes(marker))).toHaveLength(1);

    warned.length = 0;
    await connection.call("bank_recent_transactions", {}, { idempotencyKey: "r2:c1" });
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain(marker);
    expect(warned[0]).toContain("a tool call's sign-in");
  });
});
