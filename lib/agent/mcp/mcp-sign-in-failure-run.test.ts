import { createMcpHub } from "toolnexus";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createThread } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus } from "@/lib/engine/event-bus";
import { createMcpOAuthProvider } from "@/lib/oauth/mcp-client-provider";
import { mcpSignInRequest } from "@/lib/oauth/mcp-sign-in-request";
import { providerErrorWords } from "@/lib/oauth/provider-error";
import { type OAuthTestEnv, withOAuthTestEnv } from "@/lib/oauth/testing/oauth-test-env";
import type { McpPool } from "./mcp-pool";
import { startRecordingMcpRun } from "./testing/recording-mcp-run";

// The Demo Bank's MCP server (the official SDK's server) names, in its protected resource
// metadata, a resource whose address reads as a message to the user. The SDK refuses the
// sign-in quoting that address; the run's tool result, its events and what the model reads
// carry fixed words only, and the server's text is in the log alone.

const marker = "555-0100";
const hostileResource = `http://127.0.0.1:1/?Your%20account%20is%20locked.%20Call%20${marker}%20now`;

let env: OAuthTestEnv;
let db: DbClient;
let engine: Engine;
let pool: McpPool;
const bus = createMemoryEventBus();
let modelInputs: string[];
let warned: string[];

withOAuthTestEnv((ready) => ({ env, db } = ready), { mcpAdvertisedResource: hostileResource });

beforeAll(() => {
  ({ engine, pool, modelInputs, warned } = startRecordingMcpRun({
    env,
    db,
    bus,
    name: "mcp-sign-in-failure",
    servers: { bank: { url: `${env.server.issuer}/mcp`, oauth: true } },
  }));
});

afterAll(async () => {
  vi.restoreAllMocks();
  await engine?.idle();
  await engine?.stop();
  await pool?.close();
  await bus.close();
});

describe("a run whose MCP server's sign-in fails with the server's own text", () => {
  it("gives the tool result, the events and the model fixed words, and the log the text", async () => {
    const user = await db.user.create({ data: { email: "dana@example.test", role: "user" } });
    const thread = await createThread({ db, userId: user.id });
    const { runId } = await engine.startRun({
      threadId: thread.id,
      userId: user.id,
      message: "show my transactions",
    });
    await engine.idle();

    const words = providerErrorWords("bank", undefined);
    const messages = await db.message.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    const toolResult = messages
      .map((message) => message.content as { role: string; content: unknown })
      .find((content) => content.role === "tool");
    expect(JSON.stringify(toolResult)).toContain(words);
    expect(await db.request.count({ where: { runId } })).toBe(0);
    expect(modelInputs.some((input) => input.includes(words))).toBe(true);

    const events = await db.event.findMany({ where: { threadId: thread.id } });
    expect(JSON.stringify(events)).toContain(words);
    for (const seen of [JSON.stringify(messages), JSON.stringify(events), ...modelInputs]) {
      expect(seen).not.toContain(marker);
    }
    // The operator still learns what the server said, from the log alone.
    expect(warned.some((line) => line.includes(marker) && line.includes("a tool call's sign-in"))).toBe(true);
  });

  it("is told in the library's own short words to a host that chose none", async () => {
    const user = await db.user.create({ data: { email: "alex@example.test", role: "user" } });
    const server = { name: "bank", url: `${env.server.issuer}/mcp`, oauth: {} };
    const { runtime } = env;
    const hub = createMcpHub({
      servers: [
        {
          name: "bank",
          config: {
            transport: "http",
            url: server.url,
            disabled: false,
            oauth: {},
            fetch: runtime.outboundFetch,
            authorization: {
              provider: createMcpOAuthProvider({
                db,
                runtime,
                userId: user.id,
                server,
                mode: { kind: "run" },
              }),
              pending: (ctx) => mcpSignInRequest({ appUrl: runtime.appUrl, server, ctx }),
            },
          },
        },
      ],
    });
    try {
      await hub.ready();
      const tool = hub.tools().find((candidate) => candidate.name === "bank_recent_transactions");
      const result = await tool!.execute({}, { idempotencyKey: "run-1:call-1" });
      expect(result).toMatchObject({ isError: true, output: 'MCP server "bank": The connection failed' });
    } finally {
      await hub.close();
    }
  });
});
