import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolkit } from "../toolkit";
import { listMcpTools, loadMcp } from "./load";
import { demoStdio } from "./testing/servers";

// The demo tracker in opencode's format: the whole command line in one array.
const demo = (extra: Record<string, unknown> = {}) => {
  const { command, args } = demoStdio() as { command: string; args: string[] };
  return { type: "local", command: [command, ...args], ...extra };
};

describe("loading MCP servers without a toolkit", () => {
  let dir: string;
  let silent: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "mcp-load-"));
    // A process that reads its input and never answers: a server stuck in its handshake.
    silent = path.join(dir, "silent.mjs");
    writeFileSync(silent, "process.stdin.resume();\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("offers only what a server's tools filter lets through, under toolkit names", async () => {
    const allow = await loadMcp({
      demo: demo({ tools: { echo: true, list_tickets: true, nonsense: true } }),
    });
    try {
      expect(allow.tools.map((t) => t.name).sort()).toEqual(["demo_echo", "demo_list_tickets"]);
      expect(allow.tools.every((t) => t.source === "mcp" && t.server === "demo")).toBe(true);
      expect(allow.status).toEqual({ demo: "connected" });
    } finally {
      await allow.close();
    }
    const toolkit = await createToolkit({
      builtins: false,
      mcpConfig: { demo: demo({ tools: { echo: false } }) },
    });
    try {
      expect(toolkit.has("demo_echo")).toBe(false);
      expect(toolkit.has("demo_list_tickets")).toBe(true);
      expect(toolkit.mcpServers()[0]!.toolCount).toBe(toolkit.tools().length);
    } finally {
      await toolkit.close();
    }
  });

  it("lists each server's own tool names, unfiltered, and disconnects", async () => {
    const inventory = await listMcpTools({
      servers: {
        demo: demo({ tools: { echo: true } }),
        gone: { command: ["node", path.join(dir, "missing.mjs")] },
        off: { ...demo(), enabled: false },
      },
    });
    expect(inventory.tools.demo!.map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo", "list_tickets"]),
    );
    expect(inventory.tools.demo!.length).toBeGreaterThan(2);
    expect(inventory.status).toEqual({ demo: "connected", gone: "failed", off: "disabled" });
  });

  it("fails a server that does not answer within its own timeout, and keeps the others", async () => {
    const started = Date.now();
    const source = await loadMcp({
      stuck: { command: [process.execPath, silent], timeout: 300 },
      bad: { url: 42 },
    });
    try {
      expect(source.status).toEqual({ stuck: "failed", bad: "failed" });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await source.close();
    }
  });

  it("rejects the whole load as soon as its signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("gave up")), 150);
    const started = Date.now();
    await expect(
      loadMcp(
        { stuck: { command: [process.execPath, silent], timeout: 60_000 } },
        { signal: controller.signal },
      ),
    ).rejects.toThrow("gave up");
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
