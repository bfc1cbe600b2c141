import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createToolkit } from "../toolkit";
import type { Answer, Request, RunResult } from "../types";
import type { McpServerConfig } from "./config";
import { startHost } from "./testing/host-process";
import { clientCalling } from "./testing/scripted-client";
import {
  demoStdio,
  everythingStdio,
  httpConfig,
  type ServerProcess,
  startDemoHttp,
  startEverythingHttp,
} from "./testing/servers";

// Every restart test starts two or three Node processes and their servers: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

// Elicitations without waitFor: the run parks, and the answer completes the same tool call,
// either in the process that still holds the call open or in a new process after a restart.
let demoHttp: ServerProcess;
let everythingHttp: ServerProcess;
let dir: string;
beforeAll(async () => {
  [demoHttp, everythingHttp] = await Promise.all([startDemoHttp(), startEverythingHttp()]);
});
afterAll(() => Promise.all([demoHttp?.stop(), everythingHttp?.stop()]));
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mcp-durable-"));
  return () => rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => path.join(dir, name);
const entry = ({ transport: _t, ...rest }: McpServerConfig) => rest;
const callsIn = (log: string, tool: string) =>
  readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line === `call ${tool}`).length;
const outputs = (result: RunResult) => result.toolCalls.map((call) => call.output);
const answer = (request: Request, rest: Omit<Answer, "id">): Answer => ({ id: request.id, ...rest });

describe("while the host process lives, the answer goes to the call still open", () => {
  it("completes a parked form elicitation with one server call, and twice-asking calls too", async () => {
    const log = file("server.log");
    const toolkit = await createToolkit({
      builtins: false,
      mcpConfig: { mcpServers: { demo: entry(demoStdio(["--log", log])) } },
    });
    try {
      const client = clientCalling([
        { id: "c1", name: "demo_open_ticket", args: { description: "from chat" } },
        { id: "c2", name: "demo_close_ticket", args: { id: 4 } },
      ]);
      const halted = await client.run("go", { toolkit });
      expect(halted.suspended!.map((r) => r.kind)).toEqual(["input", "input"]);
      const [open, close] = halted.suspended!;
      expect(toolkit.mcpServers()[0]!.status).toBe("connected");

      // A refused answer changes nothing: the same question is asked again, the call stays open.
      const refused = await client.resume(
        halted.checkpoint!,
        [answer(open!, { ok: true, data: { title: 1 } })],
        { toolkit },
      );
      const reasked = refused.suspended!.find((r) => r.prompt === open!.prompt)!;
      expect(reasked.id).not.toBe(open!.id);
      expect((reasked.data!.mcp as { refused: string }).refused).toMatch(/title/);

      const second = await client.resume(
        refused.checkpoint!,
        [
          answer(reasked, { ok: true, data: { title: "Broken build", priority: "low" } }),
          answer(close!, { ok: true, data: { resolution: "duplicate" } }),
        ],
        { toolkit },
      );
      expect(second.suspended!.map((r) => r.prompt)).toEqual(["Close ticket #4 as duplicate?"]);
      const done = await client.resume(
        second.checkpoint!,
        [answer(second.pending!, { ok: true, data: { confirm: true } })],
        {
          toolkit,
        },
      );
      expect(done.status).toBe("done");
      expect(outputs(done)[0]).toMatch(/^Opened #8 \[open\] \(low\) Broken build/);
      expect(outputs(done)[1]).toBe("Closed ticket #4 as duplicate");
      // One tools/call each: the answers went to the calls that were open all along.
      expect(callsIn(log, "open_ticket")).toBe(1);
      expect(callsIn(log, "close_ticket")).toBe(1);
    } finally {
      await toolkit.close();
    }
  });

  it("cancels an in-flight call on ctx.signal and tells the server", async () => {
    const log = file("server.log");
    const toolkit = await createToolkit({
      builtins: false,
      mcpConfig: { mcpServers: { demo: entry(demoStdio(["--log", log])) } },
    });
    try {
      const controller = new AbortController();
      const running = toolkit.execute("demo_slow", { ms: 5000 }, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 300));
      controller.abort();
      expect(await running).toMatchObject({ output: "The tool call was cancelled", isError: true });
      await expect.poll(() => readFileSync(log, "utf8")).toContain("slow cancelled");
      expect(await toolkit.execute("demo_echo", { text: "next" })).toMatchObject({ output: "next" });
    } finally {
      await toolkit.close();
    }
  });
});

const formAndUrlCalls = ["accept", "decline", "cancel"].flatMap((variant, i) => [
  { id: `f${i}`, name: "ev_trigger-elicitation-request" },
  {
    id: `u${i}`,
    name: "ev_trigger-url-elicitation",
    args: { url: `https://auth.example.com/${variant}`, elicitationId: `id-${variant}` },
  },
]);

describe.each([
  ["stdio", () => everythingStdio(), () => demoStdio()],
  ["Streamable HTTP", () => httpConfig(everythingHttp.port), () => httpConfig(demoHttp.port)],
])("across a real restart of the host process (%s)", (_transport, everything, demo) => {
  it("answers, declines and cancels form and URL elicitations of the reference server", async () => {
    const mcpConfig = { mcpServers: { ev: entry(everything()) } };
    const paths = { stateFile: file("state.json"), reportFile: file("first.json") };
    const first = await startHost({ mcpConfig, calls: formAndUrlCalls, ...paths });
    const parked = first.report.result.suspended!;
    expect(parked.map((r) => r.kind)).toEqual([
      "input",
      "authorization",
      "input",
      "authorization",
      "input",
      "authorization",
    ]);
    await first.kill();

    const replies = [{ ok: true, data: { name: "Ana", integer: 5 } }, { ok: true }] as Omit<Answer, "id">[];
    replies.push({ ok: false, reason: "declined" }, { ok: false, reason: "declined" });
    replies.push({ ok: false, reason: "cancelled" }, { ok: false, reason: "expired" });
    const answers = parked.map((request, i) => answer(request, replies[i]!));
    const second = await startHost({
      mcpConfig,
      calls: formAndUrlCalls,
      ...paths,
      reportFile: file("second.json"),
      answers,
    });
    expect(second.report.pid).not.toBe(first.report.pid);
    const result = second.report.result;
    expect(result.status).toBe("done");
    const texts = outputs(result);
    expect(texts[0]).toContain("- Name: Ana");
    expect(texts[1]).toContain("User completed the URL elicitation flow");
    expect(texts[2]).toContain("User declined to provide");
    expect(texts[3]).toContain("User declined to open the URL");
    expect(texts[4]).toContain("User cancelled the elicitation dialog");
    expect(texts[5]).toContain("User cancelled the URL elicitation");
    expect(await second.exited()).toBe(0);
  });

  it("completes a call that asks twice across two restarts, and one that asks once", async () => {
    const state = file("tracker.json");
    const server = demo();
    const mcpConfig = {
      mcpServers: { demo: entry(server.transport === "stdio" ? demoStdio(["--state", state]) : server) },
    };
    const calls = [
      { id: "c1", name: "demo_close_ticket", args: { id: 3 } },
      { id: "c2", name: "demo_open_ticket", args: {} },
    ];
    const paths = { stateFile: file("state.json"), reportFile: file("r1.json") };
    const first = await startHost({ mcpConfig, calls, ...paths });
    const [resolution, details] = first.report.result.suspended!;
    await first.kill();

    const second = await startHost({
      mcpConfig,
      calls,
      ...paths,
      reportFile: file("r2.json"),
      answers: [
        answer(resolution!, { ok: true, data: { resolution: "wontfix" } }),
        answer(details!, { ok: true, data: { title: "After a restart", priority: "high" } }),
      ],
    });
    const halfway = second.report.result;
    expect(halfway.suspended!.map((r) => r.prompt)).toEqual(["Close ticket #3 as wontfix?"]);
    const confirm = halfway.pending!;
    expect((confirm.data!.mcp as { earlier: unknown[] }).earlier).toHaveLength(1);
    await second.kill();

    const third = await startHost({
      mcpConfig,
      calls,
      ...paths,
      reportFile: file("r3.json"),
      answers: [answer(confirm, { ok: true, data: { confirm: true } })],
    });
    const result = third.report.result;
    expect(result.status).toBe("done");
    expect(outputs(result)[0]).toBe("Closed ticket #3 as wontfix");
    expect(outputs(result)[1]).toMatch(/^Opened #\d+ \[open\] \(high\) After a restart/);
    if (server.transport === "stdio") {
      const tracker = JSON.parse(readFileSync(state, "utf8")) as {
        tickets: Array<{ id: number; status: string; title: string }>;
      };
      expect(tracker.tickets.find((t) => t.id === 3)?.status).toBe("closed");
      // The ticket was opened once, although its call ran again after the restart.
      expect(tracker.tickets.filter((t) => t.title === "After a restart")).toHaveLength(1);
    }
  });
});

it("follows the URL error path across a restart: the same call again once the user is done", async () => {
  const mcpConfig = { mcpServers: { demo: entry(demoStdio(["--state", file("tracker.json")])) } };
  const calls = [{ id: "c1", name: "demo_export_tickets", args: { format: "json" } }];
  const paths = { stateFile: file("state.json"), reportFile: file("r1.json") };
  const first = await startHost({ mcpConfig, calls, ...paths });
  const request = first.report.result.pending!;
  expect(request).toMatchObject({
    kind: "authorization",
    prompt: "Authorize the export to your drive",
    url: expect.stringContaining("export=json"),
    data: { mcp: { mode: "url", path: "error", elicitationId: "export-json" } },
  });
  await first.kill();
  const second = await startHost({
    mcpConfig,
    calls,
    ...paths,
    reportFile: file("r2.json"),
    answers: [answer(request, { ok: true })],
  });
  expect(outputs(second.report.result)).toEqual(["Exported 7 tickets as json."]);
});
