import { afterEach, describe, expect, it } from "vitest";
import { createMcpHub, type McpHub } from "./hub";
import { MAX_SERVER_ERROR_CHARS } from "./results";
import type { McpFailure } from "./server";
import { HOSTILE_MARKER, REFUSAL, startHostileGateway } from "./testing/hostile-gateway";

// What a gateway or a hostile server sends in place of an MCP answer (an HTML error page, text
// aimed at the model) is kept out of the tool result and the status and handed to the host's
// onFailure; the server's own JSON-RPC error is the tool's answer and stays its words.

let hub: McpHub | undefined;
let gateway: Awaited<ReturnType<typeof startHostileGateway>> | undefined;
afterEach(async () => {
  await hub?.close();
  await gateway?.close();
  hub = gateway = undefined;
});

async function hubBehind(options: { down?: boolean } = {}) {
  gateway = await startHostileGateway(options);
  const failures: McpFailure[] = [];
  hub = createMcpHub({
    servers: [{ name: "tickets", config: { transport: "http", url: gateway.url, disabled: false } }],
    onFailure: (failure) => failures.push(failure),
  });
  await hub.ready();
  const tool = (name: string) => hub!.tools().find((candidate) => candidate.name === `tickets_${name}`)!;
  return { failures, tool };
}

const textOf = (failure: McpFailure | undefined) => (failure?.error as Error | undefined)?.message ?? "";

describe("a call failing before the server answered", () => {
  it("says what failed in fixed words and hands the page's text to onFailure alone", async () => {
    const { failures, tool } = await hubBehind();
    const result = await tool("through_gateway").execute({}, {});
    expect(result).toEqual({
      output: 'MCP server "tickets": The server answered HTTP 502',
      isError: true,
      metadata: { server: "tickets" },
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ server: "tickets", during: "call" });
    expect(textOf(failures[0])).toContain(HOSTILE_MARKER);
  });

  it("says a page in place of an MCP answer is not one", async () => {
    const { failures, tool } = await hubBehind();
    const result = await tool("behind_a_page").execute({}, {});
    expect(result.output).toBe('MCP server "tickets": The server did not answer like an MCP server');
    expect(failures.map((failure) => failure.during)).toEqual(["call"]);
  });

  it("keeps a connect's page out of the status and gives it to onFailure", async () => {
    const { failures } = await hubBehind({ down: true });
    const status = hub!.status().find((server) => server.name === "tickets");
    expect(status).toMatchObject({ status: "failed", error: "The server answered HTTP 502" });
    expect(JSON.stringify(status)).not.toContain(HOSTILE_MARKER);
    expect(failures.map((failure) => failure.during)).toEqual(["connect"]);
    expect(textOf(failures[0])).toContain(HOSTILE_MARKER);
  });
});

describe("a call the server answered with a JSON-RPC error", () => {
  it("keeps the tool's own message as its result and tells onFailure nothing", async () => {
    const { failures, tool } = await hubBehind();
    const result = await tool("refuse").execute({}, {});
    expect(result).toMatchObject({ isError: true, output: expect.stringContaining(REFUSAL) });
    expect(failures).toEqual([]);
  });

  it("cuts a long message short", async () => {
    const { tool } = await hubBehind();
    const result = await tool("refuse_at_length").execute({}, {});
    expect(result.output).toContain(REFUSAL);
    expect(result.output.length).toBeLessThan(MAX_SERVER_ERROR_CHARS + 40);
  });
});
