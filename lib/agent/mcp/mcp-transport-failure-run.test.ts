import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createThread } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus } from "@/lib/engine/event-bus";
import { type OAuthTestEnv, withOAuthTestEnv } from "@/lib/oauth/testing/oauth-test-env";
import { HOSTILE_MARKER, REFUSAL, startHostileGateway } from "@/lib/toolnexus/mcp/testing/hostile-gateway";
import type { McpPool } from "./mcp-pool";
import { startRecordingMcpRun } from "./testing/recording-mcp-run";

// An MCP server without sign-in behind a gateway that answers a call with a 502 page aimed at
// the model. The run's tool result, its events and what the model reads carry the library's
// fixed words; the page's text is in the log alone. The server's own JSON-RPC error is still
// the tool's answer.

let env: OAuthTestEnv;
let db: DbClient;
let engine: Engine;
let pool: McpPool;
let gateway: Awaited<ReturnType<typeof startHostileGateway>>;
const bus = createMemoryEventBus();
let modelInputs: string[];
let warned: string[];

withOAuthTestEnv((ready) => ({ env, db } = ready));

beforeAll(async () => {
  gateway = await startHostileGateway();
  ({ engine, pool, modelInputs, warned } = startRecordingMcpRun({
    env,
    db,
    bus,
    name: "mcp-transport-failure",
    servers: { tickets: { url: gateway.url } },
  }));
});

afterAll(async () => {
  vi.restoreAllMocks();
  await engine?.idle();
  await engine?.stop();
  await pool?.close();
  await gateway?.close();
  await bus.close();
});

async function run(message: string) {
  const user = await db.user.create({ data: { email: `${crypto.randomUUID()}@example.test`, role: "user" } });
  const thread = await createThread({ db, userId: user.id });
  const { runId } = await engine.startRun({ threadId: thread.id, userId: user.id, message });
  await engine.idle();
  const messages = await db.message.findMany({ where: { runId }, orderBy: { seq: "asc" } });
  const toolResult = messages
    .map((row) => row.content as { role: string; content: unknown })
    .find((content) => content.role === "tool");
  const events = await db.event.findMany({ where: { threadId: thread.id } });
  return { toolResult: JSON.stringify(toolResult), messages, events };
}

describe("a run whose MCP server's gateway answers a call with a hostile page", () => {
  it("gives the tool result, the events and the model fixed words, and the log the page", async () => {
    modelInputs.length = 0;
    const { toolResult, messages, events } = await run("call tickets_through_gateway {}");
    const words = 'MCP server \\"tickets\\": The server answered HTTP 502';
    expect(toolResult).toContain(words);
    expect(JSON.stringify(events)).toContain(words);
    expect(modelInputs.some((input) => input.includes(words))).toBe(true);
    for (const seen of [JSON.stringify(messages), JSON.stringify(events), ...modelInputs]) {
      expect(seen).not.toContain(HOSTILE_MARKER);
    }
    // The operator learns what came back, cleaned, from the log alone.
    const logged = warned.find((line) => line.includes(HOSTILE_MARKER));
    expect(logged).toContain('"during":"call"');
  });

  it("still shows the tool's own JSON-RPC error", async () => {
    const { toolResult } = await run("call tickets_refuse {}");
    expect(toolResult).toContain(REFUSAL);
  });
});
