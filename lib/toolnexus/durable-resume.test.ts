import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStubLlmServer, type StubLlmServer, type StubRequest } from "./testing/index";
import { wireToolResults, wireUnbalancedReason, wireUserTexts } from "./testing/wire-transcript";
import type { Checkpoint, RunResult } from "./types";

const exec = promisify(execFile);
const child = path.join(import.meta.dirname, "testing/durable-child.ts");
const root = path.resolve(import.meta.dirname, "../..");
// node --import tsx keeps each run in exactly one process, so a SIGKILL really ends it.
const nodeArgs = (...args: string[]) => ["--import", "tsx", child, ...args];

interface Report {
  result?: RunResult;
  seen: Array<{ tool: string; pid: number; answer?: unknown; idempotencyKey?: string }>;
}

let server: StubLlmServer;
let calls: Array<{ id: string; name: string }> = [];
let dir: string;

beforeAll(async () => {
  server = await createStubLlmServer((request: StubRequest) => {
    const results = wireToolResults(request);
    if (results.length === 0) return { toolCalls: calls };
    return { text: `finished: ${results.map(([, content]) => content).join(" | ")}` };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  dir = mkdtempSync(path.join(tmpdir(), "toolnexus-resume-"));
  return () => rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => path.join(dir, name);
const read = <T>(name: string) => JSON.parse(readFileSync(file(name), "utf8")) as T;
const runChild = (...args: string[]) =>
  exec(process.execPath, nodeArgs(...args), { cwd: root, timeout: 60_000 });

describe("resume across a process boundary", () => {
  it("halts in one process and resumes in another, where the tool sees ctx.answer", async () => {
    calls = [
      { id: "call-deploy", name: "deploy" },
      { id: "call-audit", name: "audit" },
    ];
    await runChild("halt", server.baseUrl("openai"), file("state.json"), file("first.json"));
    const first = read<Report>("first.json");
    expect(first.result!.status).toBe("pending");
    const request = first.result!.pending!;
    expect(request).toMatchObject({ kind: "approval", prompt: "Deploy to production?" });
    // What the host persisted is the halt's checkpoint itself.
    expect(read<Checkpoint>("state.json")).toEqual(first.result!.checkpoint);

    const answers = JSON.stringify([{ id: request.id, ok: true, data: { by: "ana" } }]);
    await runChild("resume", server.baseUrl("openai"), file("state.json"), file("second.json"), answers);
    const second = read<Report>("second.json");

    expect(second.result!.status).toBe("done");
    expect(second.result!.text).toBe("finished: deployed, approved by ana | audited");
    expect(second.seen).toEqual([
      {
        tool: "deploy",
        pid: expect.any(Number),
        answer: { id: request.id, ok: true, data: { by: "ana" } },
        idempotencyKey: "run-boundary:call-deploy",
      },
    ]);
    expect(second.seen[0]!.pid).not.toBe(first.seen[0]!.pid);
    expect(first.seen.map((s) => [s.tool, s.idempotencyKey])).toEqual([
      ["deploy", "run-boundary:call-deploy"],
      ["audit", "run-boundary:call-audit"],
    ]);
    expect(server.requests).toHaveLength(2);
    for (const wire of server.requests) expect(wireUnbalancedReason(wire)).toBeUndefined();
    expect(wireUserTexts(server.requests[1]!)).toEqual(["ship it"]);
  });

  it("continues a run whose process was killed mid-turn from its last persisted safe point", async () => {
    calls = [
      { id: "call-audit", name: "audit" },
      { id: "call-slow", name: "slow" },
    ];
    const doomed: ChildProcess = spawn(
      process.execPath,
      nodeArgs("halt", server.baseUrl("openai"), file("state.json"), file("first.json"), "crash"),
      { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      doomed.once("exit", (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      doomed.stdout!.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("persisted")) resolve();
      });
      doomed.once("exit", () => reject(new Error("the child exited before persisting")));
    });
    doomed.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const saved = read<Checkpoint>("state.json");
    expect(saved.slots.map((slot) => slot.state.status)).toEqual(["done", "queued"]);
    expect(
      read<Report>("first.json")
        .seen.map((s) => s.tool)
        .sort(),
    ).toEqual(["audit", "slow"]);

    await runChild("resume", server.baseUrl("openai"), file("state.json"), file("second.json"), "[]");
    const second = read<Report>("second.json");
    expect(second.result!.status).toBe("done");
    expect(second.result!.text).toBe("finished: audited | slow job finished");
    // The finished call is not run again; the interrupted one runs again under the same key.
    expect(second.seen).toEqual([
      { tool: "slow", pid: expect.any(Number), idempotencyKey: "run-boundary:call-slow" },
    ]);
    expect(server.requests).toHaveLength(2);
    for (const wire of server.requests) expect(wireUnbalancedReason(wire)).toBeUndefined();
  });
});
