import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolkit, type Toolkit } from "../toolkit";
import type { McpServerConfig } from "./config";
import { connectMcpHub } from "./hub";
import { demoStdio } from "./testing/servers";

const entry = ({ transport: _t, ...rest }: McpServerConfig) => rest;

describe("a demo server that crashes or stalls", () => {
  let toolkit: Toolkit;
  beforeAll(async () => {
    toolkit = await createToolkit({
      builtins: false,
      mcpConfig: {
        mcpServers: { demo: entry(demoStdio([], { timeoutMs: 1500 })), other: entry(demoStdio()) },
      },
    });
  });
  afterAll(() => toolkit?.close());

  it("turns a crash mid-call into a tool error and a failed status, then reconnects on the next call", async () => {
    const crashed = await toolkit.execute("demo_crash", {});
    expect(crashed).toMatchObject({
      isError: true,
      output: expect.stringMatching(/demo.*closed the connection/),
      metadata: { server: "demo" },
    });
    expect(toolkit.mcpServers()[0]).toMatchObject({
      name: "demo",
      status: "failed",
      error: expect.stringMatching(/closed/),
    });
    // The other server never noticed.
    expect(await toolkit.execute("other_echo", { text: "fine" })).toMatchObject({ output: "fine" });
    // The next call starts the server again.
    expect(await toolkit.execute("demo_echo", { text: "back" })).toMatchObject({
      output: "back",
      isError: false,
    });
    expect(toolkit.mcpServers()[0]).toMatchObject({ status: "connected" });
  });

  it("times a silent call out after the server's timeoutMs, but not one that reports progress", async () => {
    const silent = await toolkit.execute("demo_slow", { ms: 4000 });
    expect(silent).toMatchObject({
      isError: true,
      output: expect.stringMatching(/did not answer within 1500 ms/),
    });
    const chatty = await toolkit.execute("demo_slow", { ms: 3000, progressEveryMs: 400 });
    expect(chatty).toMatchObject({ isError: false, output: "waited 3000 ms" });
  });
});

describe("servers that never become usable", () => {
  it("gives up on a stdio server that never answers the handshake and ends its process", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-silent-"));
    const pidFile = path.join(dir, "pid");
    const silent = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const toolkit = await createToolkit({
      mcpConfig: { mcpServers: { silent: { command: process.execPath, args: ["-e", silent] } } },
      mcp: { connectTimeoutMs: 1500 },
    });
    try {
      expect(toolkit.mcpServers()).toEqual([
        { name: "silent", status: "failed", toolCount: 0, error: "The server did not answer within 1500 ms" },
      ]);
      const pid = Number(readFileSync(pidFile, "utf8"));
      await expect.poll(() => alive(pid)).toBe(false);
    } finally {
      await toolkit.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a refused connection by its class, never the server's reply or the URL", async () => {
    const server = createServer((_req, res) => res.writeHead(500).end("internal stack trace"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    const closedPort = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const toolkit = await createToolkit({
      mcpConfig: {
        mcpServers: {
          failing: { url: `http://127.0.0.1:${port}/mcp?token=secret` },
          closed: { url: `http://127.0.0.1:${closedPort}/mcp?token=secret` },
        },
      },
    });
    try {
      const [failing, closed] = toolkit.mcpServers();
      expect(failing!.error).toBe("The server answered HTTP 500");
      expect(closed!.error).toBe("Could not connect (ECONNREFUSED)");
    } finally {
      await toolkit.close();
      server.close();
    }
  });

  it("reports the status a URL that is not an MCP endpoint answered, never its reply", async () => {
    const server = createServer((_req, res) =>
      res.writeHead(404).end("no such page; db password is hunter2"),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const toolkit = await createToolkit({
      mcpConfig: { mcpServers: { wrong: { url: `http://127.0.0.1:${port}/nope` } } },
    });
    try {
      const [status] = toolkit.mcpServers();
      expect(status).toMatchObject({ name: "wrong", status: "failed" });
      expect(status!.error).toBe("The server answered HTTP 404");
    } finally {
      await toolkit.close();
      server.close();
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("config files", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "mcp-config-file-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports a malformed entry by file and field while the other servers of the file work", async () => {
    const file = path.join(dir, "mcp.json");
    const good = entry(demoStdio());
    writeFileSync(file, JSON.stringify({ mcpServers: { demo: good, typo: { comand: "node" } } }));
    const hub = await connectMcpHub(file);
    try {
      const status = hub.status();
      expect(status.map((s) => [s.name, s.status])).toEqual([
        ["demo", "connected"],
        ["typo", "failed"],
      ]);
      expect(status[1]!.error).toBe(`${file}: mcpServers.typo: needs "command" (stdio) or "url" (HTTP)`);
      const toolkit = await createToolkit({ mcpHub: hub });
      expect(await toolkit.execute("demo_echo", { text: "ok" })).toMatchObject({ output: "ok" });
      // A toolkit on a shared hub leaves its connections open when it closes.
      await toolkit.close();
      expect(hub.status()[0]!.status).toBe("connected");
    } finally {
      await hub.close();
    }
  });

  it("refuses a file that is not JSON, naming the file", async () => {
    const file = path.join(dir, "broken.json");
    writeFileSync(file, '{ "mcpServers": { ');
    await expect(createToolkit({ mcpConfig: file })).rejects.toThrow(`${file}: not valid JSON`);
  });
});
