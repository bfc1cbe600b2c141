import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkServerEntry, connectWithLibrary } from "./library-connection";
import type { McpConnection } from "./mcp-pool";

// A real MCP server over stdio sending JSON nested past the app's cap (64 levels, ADR 0057).
const script = path.join(import.meta.dirname, "testing/deep-json-server.ts");
let connection: McpConnection;

beforeAll(async () => {
  const entry = checkServerEntry("deep", { command: process.execPath, args: ["--import", "tsx", script] });
  connection = await connectWithLibrary("deep", entry);
});
afterAll(() => connection?.close());

describe("JSON from an MCP server", () => {
  it("refuses a result nested deeper than 64 levels as a tool error naming the path, and passes one within", async () => {
    const tool = connection.tools().find((candidate) => candidate.name === "deep_nested")!;
    const within = await tool.execute({ levels: 60 });
    expect(within.isError).toBe(false);
    expect(JSON.stringify(within.metadata?.structuredContent)).toContain('"end":true');

    for (const levels of [65, 2_000]) {
      const deep = await tool.execute({ levels });
      expect(deep.isError).toBe(true);
      expect(deep.metadata).toBeUndefined();
      expect(deep.output).toMatch(
        /nested deeper than 64 levels \(at \/metadata\/structuredContent(\/a){62} of the result\)/,
      );
    }
    // The same through the connection's own call path.
    const called = await connection.call("deep_nested", { levels: 2_000 }, {});
    expect(called).toMatchObject({ isError: true, output: expect.stringContaining("deeper than 64 levels") });
  });

  it("leaves out a tool whose input schema nests too deeply, and says so", () => {
    const names = connection.tools().map((tool) => tool.name);
    expect(names).toEqual(["deep_nested"]);
    expect(connection.state()).toEqual({
      status: "connected",
      toolCount: 1,
      error: "Skipped tools whose input schema is nested too deeply: deep_deep_schema",
    });
    // The same tool object on every listing.
    expect(connection.tools()[0]).toBe(connection.tools()[0]);
  });
});
