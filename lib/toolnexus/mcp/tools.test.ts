import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../define-tool";
import { createToolkit, type Toolkit } from "../toolkit";
import type { McpServerConfig } from "./config";
import {
  demoStdio,
  everythingStdio,
  freePort,
  httpConfig,
  type ServerProcess,
  startDemoHttp,
  startEverythingHttp,
} from "./testing/servers";

// Real servers on both transports: the demo tracker and the protocol's reference server.
let demoHttp: ServerProcess;
let everythingHttp: ServerProcess;
let demoSse: ServerProcess;
beforeAll(async () => {
  [demoHttp, everythingHttp, demoSse] = await Promise.all([
    startDemoHttp(),
    startEverythingHttp(),
    startDemoHttp([], "sse"),
  ]);
});
afterAll(() => Promise.all([demoHttp?.stop(), everythingHttp?.stop(), demoSse?.stop()]));

function entry(config: McpServerConfig): Record<string, unknown> {
  const { transport: _transport, ...rest } = config;
  return rest;
}

describe.each([
  ["stdio", () => demoStdio(), () => everythingStdio()],
  ["Streamable HTTP", () => httpConfig(demoHttp.port), () => httpConfig(everythingHttp.port)],
])("MCP tools over %s", (transport, demo, everything) => {
  let toolkit: Toolkit;
  beforeAll(async () => {
    toolkit = await createToolkit({
      mcpConfig: { mcpServers: { demo: entry(demo()), everything: entry(everything()) } },
    });
  });
  afterAll(() => toolkit?.close());

  it("lists every tool as <server>_<tool> with its schema, description, source and annotations", () => {
    const expected = transport === "stdio" ? "stdio" : "http";
    expect(toolkit.mcpServers()).toEqual([
      { name: "demo", status: "connected", transport: expected, toolCount: 10 },
      { name: "everything", status: "connected", transport: expected, toolCount: expect.any(Number) },
    ]);
    const byName = new Map(toolkit.tools().map((tool) => [tool.name, tool]));
    expect(byName.get("demo_list_tickets")).toMatchObject({
      source: "mcp",
      server: "demo",
      description: expect.stringContaining("List the tracker's tickets"),
      annotations: { title: "List tickets", readOnlyHint: true, openWorldHint: false },
      inputSchema: { type: "object", properties: { status: { enum: ["open", "closed", "all"] } } },
    });
    expect(byName.get("demo_delete_ticket")?.annotations).toMatchObject({ destructiveHint: true });
    // Characters outside [A-Za-z0-9_-] never reach a tool name; "-" is allowed and kept.
    expect(byName.get("everything_get-sum")).toMatchObject({ source: "mcp", server: "everything" });
    expect(byName.has("everything_trigger-elicitation-request")).toBe(true);
    expect(byName.has("everything_trigger-url-elicitation")).toBe(true);
    // Sampling and roots are not advertised, so the reference server leaves those tools out.
    expect(byName.has("everything_trigger-sampling-request")).toBe(false);
    expect(byName.has("everything_get-roots-list")).toBe(false);
    expect(toolkit.specs().map((s) => s.name)).toContain("demo_open_ticket");
  });

  it("calls tools: text joined, structured content as JSON, errors as tool errors", async () => {
    expect(await toolkit.execute("everything_echo", { message: "hello" })).toMatchObject({
      output: "Echo: hello",
      isError: false,
      metadata: { server: "everything", mcp: { server: "everything", tool: "echo" } },
    });
    const sum = await toolkit.execute("everything_get-sum", { a: 2, b: 3 });
    expect(sum.output).toContain("5");
    const structured = await toolkit.execute("everything_get-structured-content", { location: "New York" });
    expect(structured.isError).toBe(false);
    expect(JSON.parse(structured.output.split("\n").at(-1)!)).toMatchObject({
      temperature: expect.any(Number),
    });
    expect(structured.metadata?.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    const list = await toolkit.execute("demo_list_tickets", { status: "open" });
    expect(list.output).toMatch(/#7 \[open\] \(high\) Old export job still running/);
    expect(await toolkit.execute("demo_delete_ticket", { id: 999 })).toMatchObject({
      output: "There is no ticket #999",
      isError: true,
    });
    const invalid = await toolkit.execute("demo_delete_ticket", { id: "seven" });
    expect(invalid.isError).toBe(true);
  });
});

describe("MCP servers that misbehave", () => {
  it("falls back to the older SSE transport when a server answers that way", async () => {
    const toolkit = await createToolkit({
      mcpConfig: { mcpServers: { old: { url: `http://127.0.0.1:${demoSse.port}/mcp` } } },
    });
    try {
      expect(toolkit.mcpServers()).toEqual([
        { name: "old", status: "connected", transport: "sse", toolCount: 10 },
      ]);
      expect(await toolkit.execute("old_echo", { text: "over sse" })).toMatchObject({ output: "over sse" });
    } finally {
      await toolkit.close();
    }
  });

  it("reports unreachable, disabled and malformed servers while the others work", async () => {
    const unused = await freePort();
    const toolkit = await createToolkit({
      mcpConfig: {
        mcpServers: {
          gone: { url: `http://127.0.0.1:${unused}/mcp` },
          nothing: { command: "/nonexistent/server-binary" },
          off: { url: `http://127.0.0.1:${demoHttp.port}/mcp`, disabled: true },
          broken: { url: 42 },
          demo: { url: `http://127.0.0.1:${demoHttp.port}/mcp` },
        },
      },
    });
    try {
      const status = toolkit.mcpServers();
      expect(status.map((s) => [s.name, s.status, s.toolCount])).toEqual([
        ["gone", "failed", 0],
        ["nothing", "failed", 0],
        ["off", "disabled", 0],
        ["demo", "connected", 10],
        ["broken", "failed", 0],
      ]);
      expect(status[0]!.error).toMatch(/fetch failed|ECONNREFUSED/);
      expect(status[1]!.error).toMatch(/ENOENT|closed/);
      expect(status[4]!.error).toMatch(/mcpServers\.broken\.url: /);
      expect(toolkit.has("off_echo")).toBe(false);
      expect(await toolkit.execute("demo_echo", { text: "still works" })).toMatchObject({
        output: "still works",
      });
    } finally {
      await toolkit.close();
    }
  });

  it("lets an MCP tool win over a native one of the same name, and keeps the first of two MCP tools", async () => {
    const clash = defineTool({ name: "demo_echo", description: "native echo", run: () => "native" });
    const toolkit = await createToolkit({
      extraTools: [clash],
      mcpConfig: {
        mcpServers: {
          demo: { url: `http://127.0.0.1:${demoHttp.port}/mcp` },
          demo_list: { url: `http://127.0.0.1:${demoSse.port}/mcp` },
        },
      },
    });
    try {
      expect(await toolkit.execute("demo_echo", { text: "x" })).toMatchObject({ output: "x" });
      expect(toolkit.get("demo_echo")?.source).toBe("mcp");
      expect(toolkit.mcpServers()[0]).toMatchObject({ name: "demo", toolCount: 10 });
      expect(toolkit.mcpServers()[0]!.duplicates).toBeUndefined();
      // A tool the second server adds at run time: "demo_list" + "tickets" is named like
      // "demo" + "list_tickets"; the list_changed notification brings it in, and it loses.
      await toolkit.execute("demo_list_add_tool", { name: "tickets" });
      await toolkit.execute("demo_list_add_tool", { name: "sum.of/all" });
      await expect.poll(() => toolkit.has("demo_list_sum_of_all")).toBe(true);
      expect(toolkit.mcpServers()[1]).toMatchObject({
        name: "demo_list",
        toolCount: 11,
        duplicates: ["demo_list_tickets"],
      });
      expect(
        toolkit
          .tools()
          .filter((t) => t.name === "demo_list_tickets")
          .map((t) => t.server),
      ).toEqual(["demo"]);
      expect(await toolkit.execute("demo_list_sum_of_all", {})).toMatchObject({ output: "sum.of/all ran" });
    } finally {
      await toolkit.close();
    }
  });
});
