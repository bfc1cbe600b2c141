import { type Answer, type Client, createClientFromDriver, createInProcessDriver } from "toolnexus";
import { collectAll } from "toolnexus/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createAgentToolkit } from "./create-agent-toolkit";
import { createDemoGenerate, DEMO_HELP, DEMO_MODEL_NAME, toDeltas } from "./demo-model";
import { formatDecline } from "./format-decline";

const now = new Date("2030-01-01T00:00:00.000Z");
const toolkits: Array<{ close(): Promise<void> }> = [];

async function setup(): Promise<{ client: Client; toolkit: Awaited<ReturnType<typeof createAgentToolkit>> }> {
  const driver = createInProcessDriver({
    model: DEMO_MODEL_NAME,
    generate: createDemoGenerate({ deltaDelayMs: 0 }),
  });
  // Declines worded as the app's engine words them, so the reviewer's reason reaches the model.
  const client = createClientFromDriver(driver, { formatDecline });
  const toolkit = await createAgentToolkit({ userId: "u1", runId: "r1", clock: () => now, balance: false });
  toolkits.push(toolkit);
  return { client, toolkit };
}

afterEach(async () => {
  for (const toolkit of toolkits.splice(0)) await toolkit.close();
});

describe("the offline demo model in the real loop", () => {
  it("parks a production deploy, then reports the reviewer's edited version", async () => {
    const { client, toolkit } = await setup();
    const halted = await client.run("deploy v1.4 to production", { toolkit });
    expect(halted.status).toBe("pending");
    expect(halted.pending).toMatchObject({
      kind: "approval",
      prompt: "Approve deploying web v1.4 to production?",
    });
    expect(halted.toolCalls.map((c) => [c.name, c.args])).toEqual([
      ["deploy", { service: "web", version: "v1.4", environment: "production" }],
    ]);

    const answer: Answer = {
      id: halted.pending!.id,
      ok: true,
      data: { arguments: { service: "web", version: "v1.4.2", environment: "production" }, note: "LGTM" },
    };
    const done = await client.resume(halted.checkpoint!, answer, { toolkit });
    expect(done.status).toBe("done");
    expect(done.text).toContain("Deployed web v1.4.2 to production");
    expect(done.text).toContain('Reviewer\'s note: "LGTM"');
  });

  it("puts a decline and its reason into the reply", async () => {
    const { client, toolkit } = await setup();
    const halted = await client.run("refund order 1234 for $250", { toolkit });
    expect(halted.pending?.kind).toBe("approval");
    const answer: Answer = {
      id: halted.pending!.id,
      ok: false,
      reason: "declined",
      data: { reason: "duplicate claim" },
    };
    const done = await client.resume(halted.checkpoint!, answer, { toolkit });
    expect(done.status).toBe("done");
    expect(done.text).toBe(
      "The refund did not go ahead. It was declined, with the reason “duplicate claim”.",
    );
  });

  it("finishes a staging deploy in one run and streams the answer in several deltas", async () => {
    const { client, toolkit } = await setup();
    const events = await collectAll(client.stream("deploy api v2.0 to staging", { toolkit }));
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("the stream did not end with done");
    expect(done.result.status).toBe("done");
    expect(done.result.text).toMatch(/^Deployed api v2\.0 to staging \(deployment DEP-/);
    const deltas = events.filter((e) => e.type === "text");
    expect(deltas.length).toBeGreaterThan(3);
    expect(events.some((e) => e.type === "tool_call" && e.name === "deploy")).toBe(true);
  });

  it("asks a question through the built-in tool and thanks for the answers", async () => {
    const { client, toolkit } = await setup();
    const halted = await client.run("ask me a question", { toolkit });
    expect(halted.pending).toMatchObject({ kind: "question", expiresAt: "2030-01-01T01:00:00.000Z" });
    const data = { "Which environment do you deploy to most?": "staging", "What should I call you?": "Al" };
    const done = await client.resume(
      halted.checkpoint!,
      { id: halted.pending!.id, ok: true, data },
      { toolkit },
    );
    expect(done.text).toBe(
      "Thanks! You answered: Which environment do you deploy to most? → staging; What should I call you? → Al.",
    );
  });

  it("asks for missing flight details and books with the submitted form", async () => {
    const { client, toolkit } = await setup();
    const halted = await client.run("book a flight from BER to LIS", { toolkit });
    expect(halted.pending).toMatchObject({ kind: "input", expiresAt: "2030-01-01T01:00:00.000Z" });
    const data = { date: "2030-02-01", passengers: 1, email: "bob@example.com" };
    const done = await client.resume(
      halted.checkpoint!,
      { id: halted.pending!.id, ok: true, data },
      { toolkit },
    );
    expect(done.text).toMatch(/^Booked BER → LIS on 2030-02-01 for 1 passenger; booking reference TNX-/);
  });

  it("answers help, and says so when a tool it needs is not installed", async () => {
    const { client, toolkit } = await setup();
    const help = await client.run("what can you do?", { toolkit });
    expect(help).toMatchObject({ status: "done", text: DEMO_HELP, toolCallCount: 0 });
    const balance = await client.run("what's my balance", { toolkit });
    expect(balance.toolCallCount).toBe(0);
    expect(balance.text).toMatch(/^The get_balance tool is not available/);
  });
});

describe("toDeltas", () => {
  it("splits into word groups that join back to the original text", () => {
    const text = "  One two three four\nfive six seven.";
    const deltas = toDeltas(text, 3);
    expect(deltas).toHaveLength(3);
    expect(deltas.join("")).toBe(text);
  });
});

describe("createDemoGenerate", () => {
  const helpTurn = {
    model: DEMO_MODEL_NAME,
    messages: [{ role: "user" as const, content: "help" }],
    tools: [],
  };

  it("pauses between text deltas, so a reply streams over time", async () => {
    const arrivals: number[] = [];
    let text = "";
    for await (const part of createDemoGenerate({ deltaDelayMs: 20 })(helpTurn)) {
      if (part.type !== "text") continue;
      arrivals.push(performance.now());
      text += part.delta;
    }
    expect(text).toBe(DEMO_HELP);
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
    // Timers may fire a little early; every gap is a real pause, not a burst.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(15);
  });

  it("stops pacing when the run is aborted", async () => {
    const controller = new AbortController();
    const parts = createDemoGenerate({ deltaDelayMs: 60_000 })({ ...helpTurn, signal: controller.signal });
    expect((await parts.next()).value).toMatchObject({ type: "text" });
    const next = parts.next();
    controller.abort();
    await expect(next).rejects.toThrow(/abort/i);
  });
});
