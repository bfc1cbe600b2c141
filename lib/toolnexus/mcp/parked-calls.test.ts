import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolkit, type Toolkit } from "../toolkit";
import type { McpServerConfig } from "./config";
import { clientCalling } from "./testing/scripted-client";
import { demoStdio } from "./testing/servers";

// The in-process half of durable elicitation: what a parked call holds, what it blocks (nothing),
// and what happens when it is gone.
const entry = ({ transport: _t, ...rest }: McpServerConfig) => rest;
let dir: string;
let log: string;
let toolkit: Toolkit | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mcp-parked-"));
  log = path.join(dir, "server.log");
});
afterEach(async () => {
  await toolkit?.close();
  toolkit = undefined;
  rmSync(dir, { recursive: true, force: true });
});
const lines = () => readFileSync(log, "utf8").split("\n");
const count = (line: string) => lines().filter((l) => l === line).length;

async function demo(options: { parkTimeoutMs?: number } = {}) {
  toolkit = await createToolkit({
    builtins: false,
    mcpConfig: { mcpServers: { demo: entry(demoStdio(["--log", log])) } },
    mcp: options,
  });
  return toolkit;
}

describe("calls parked on a question", () => {
  it("do not block other calls of the same server, and each question reaches its own call", async () => {
    const tools = await demo();
    const opening = clientCalling([{ id: "o", name: "demo_open_ticket" }]);
    const parked = await opening.run("open", { toolkit: tools });
    expect(parked.pending!.prompt).toBe("Which ticket should be opened?");
    // While that call waits for a person, the server serves other calls, questions included.
    expect(await tools.execute("demo_echo", { text: "meanwhile" })).toMatchObject({ output: "meanwhile" });
    const closing = clientCalling([{ id: "c", name: "demo_close_ticket", args: { id: 1 } }]);
    const asked = await closing.run("close", { toolkit: tools });
    expect(asked.pending!.prompt).toBe("How was ticket #1 resolved?");

    const closed = await closing.resume(
      asked.checkpoint!,
      { id: asked.pending!.id, ok: false, reason: "declined" },
      { toolkit: tools },
    );
    expect(closed.toolCalls[0]!.output).toBe("Ticket #1 stays open.");
    const opened = await opening.resume(
      parked.checkpoint!,
      { id: parked.pending!.id, ok: true, data: { title: "Parked meanwhile", priority: "low" } },
      { toolkit: tools },
    );
    expect(opened.toolCalls[0]!.output).toMatch(/^Opened #8 \[open\] \(low\) Parked meanwhile/);
    expect(count("call open_ticket")).toBe(1);
  });

  it("are dropped after parkTimeoutMs; a later answer calls the tool again and still completes it", async () => {
    const tools = await demo({ parkTimeoutMs: 300 });
    const client = clientCalling([{ id: "o", name: "demo_open_ticket", args: { description: "late" } }]);
    const parked = await client.run("open", { toolkit: tools });
    await new Promise((resolve) => setTimeout(resolve, 600));
    const done = await client.resume(
      parked.checkpoint!,
      { id: parked.pending!.id, ok: true, data: { title: "Answered late", priority: "normal" } },
      { toolkit: tools },
    );
    expect(done.toolCalls[0]!.output).toMatch(/Answered late/);
    // The dropped call was cancelled on the server; the replay was a second call.
    expect(count("call open_ticket")).toBe(2);
  });

  it("end with close(), which also ends the server's process", async () => {
    const tools = await demo();
    const client = clientCalling([{ id: "o", name: "demo_open_ticket" }]);
    expect((await client.run("open", { toolkit: tools })).status).toBe("pending");
    await tools.close();
    toolkit = undefined;
    await expect.poll(() => lines()).toContain("exit");
  });
});
