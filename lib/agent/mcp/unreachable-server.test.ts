import { afterEach, describe, expect, it } from "vitest";
import { checkServerEntry, connectWithLibrary } from "./library-connection";
import type { McpConnection } from "./mcp-pool";
import { closedPortUrl, referenceStdioEntry } from "./testing/reference-server";

// A call by name to a server that needs no sign-in: one that could not be reached answers with
// the words of its status (never the server's own text), one that is connected but lacks the
// tool says so.

const open: McpConnection[] = [];

async function connect(name: string, entry: unknown): Promise<McpConnection> {
  const connection = await connectWithLibrary(name, checkServerEntry(name, entry));
  open.push(connection);
  return connection;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe("a call by name to an MCP server without sign-in", () => {
  it("says a server that refuses the connection cannot be reached now, in its status's words", async () => {
    const connection = await connect("tickets", { url: await closedPortUrl() });
    expect(connection.state()).toMatchObject({ status: "failed", error: "Could not connect (ECONNREFUSED)" });

    const result = await connection.call("tickets_create", {}, { idempotencyKey: "r1:c1" });
    expect(result).toEqual({
      output: 'MCP server "tickets" cannot be reached now: Could not connect (ECONNREFUSED)',
      isError: true,
      metadata: { server: "tickets" },
    });
  });

  it("says a server whose process ends at start cannot be reached now", async () => {
    const connection = await connect("crashing", {
      command: process.execPath,
      args: ["-e", "process.exit(3)"],
    });
    const { status, error } = connection.state();
    expect(status).toBe("failed");

    const result = await connection.call("crashing_echo", {}, { idempotencyKey: "r1:c1" });
    expect(result.output).toBe(`MCP server "crashing" cannot be reached now: ${error}`);
    expect(result.isError).toBe(true);
  });

  it("says a connected server does not offer a tool it lacks", async () => {
    const connection = await connect("everything", referenceStdioEntry);
    expect(connection.state().status).toBe("connected");

    const result = await connection.call("everything_no_such_tool", {}, { idempotencyKey: "r1:c1" });
    expect(result).toEqual({
      output: 'MCP server "everything" does not offer everything_no_such_tool now',
      isError: true,
    });
  });
});
