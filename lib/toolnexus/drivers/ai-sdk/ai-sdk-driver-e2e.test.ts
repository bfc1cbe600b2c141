import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../client";
import { defineTool } from "../../define-tool";
import { pending } from "../../pending";
import { unbalancedReason } from "../../testing/balanced-transcript";
import { collect, RUN_MODES } from "../../testing/run-modes";
import { createStubLlmServer, type StubLlmServer } from "../../testing/stub-llm-server";
import type { StubRequest } from "../../testing/stub-reply";
import { createToolkit } from "../../toolkit";
import type { Checkpoint, Client, Message, RunResult } from "../../types";

// The whole loop driven by a real AI SDK provider (@ai-sdk/openai-compatible) over HTTP against
// the local stub LLM server, JSON and SSE: what a user of createClient({ languageModel }) gets.

type WireMessage = {
  role: string;
  tool_call_id?: string;
  content?: unknown;
  tool_calls?: Array<{ id: string }>;
};

let stub: StubLlmServer;
const answerAfterTools = (request: StubRequest) => {
  const messages = request.body.messages as WireMessage[];
  const anthropicResults = (m: WireMessage) =>
    Array.isArray(m.content) && m.content.some((b: { type?: string }) => b.type === "tool_result");
  if (!messages.some((m) => m.role === "tool" || anthropicResults(m))) return undefined;
  return { text: "All done." };
};
let firstTurn: () => { toolCalls: Array<{ id: string; name: string; args?: Record<string, unknown> }> };

beforeAll(async () => {
  stub = await createStubLlmServer((request) => answerAfterTools(request) ?? firstTurn());
});
afterAll(() => stub.close());

const languageModel = () =>
  // includeUsage: without it the provider does not ask for usage on streams, and reports none.
  createOpenAICompatible({ baseURL: stub.baseUrl("openai"), name: "stub", apiKey: "k", includeUsage: true })(
    "m",
  );

const run = (client: Client, mode: (typeof RUN_MODES)[number], prompt: string, options: object) =>
  mode === "run"
    ? client.run(prompt, options).then((result) => ({ result, events: [] }))
    : collect(client.stream(prompt, options));

/** The transcript the provider saw, in the library's neutral shape, for the balance check. */
function neutral(messages: WireMessage[]): Message[] {
  return messages.flatMap((m): Message[] => {
    if (m.role === "tool") {
      return [
        { role: "tool", toolCallId: m.tool_call_id!, name: "?", content: String(m.content), isError: false },
      ];
    }
    if (m.role === "assistant") {
      const toolCalls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: "?", args: {} }));
      return [{ role: "assistant", content: String(m.content ?? ""), toolCalls }];
    }
    return [{ role: m.role as "user", content: String(m.content) }];
  });
}

describe.each(RUN_MODES)("createClient({ languageModel }) over the stub server (%s)", (mode) => {
  it("suspends, asks waitFor, retries the same call with ctx.answer and finishes", async () => {
    firstTurn = () => ({ toolCalls: [{ id: "c1", name: "get_balance", args: { account: "main" } }] });
    let authed = false;
    const seenArgs: unknown[] = [];
    const getBalance = defineTool({
      name: "get_balance",
      description: "Balance; needs login first",
      inputSchema: { type: "object", properties: { account: { type: "string" } } },
      run: (args, ctx) => {
        seenArgs.push(args);
        if (!authed)
          return pending({ kind: "authorization", prompt: "Log in first", url: "https://bank.test/login" });
        return `balance: $500 (answer ${ctx?.answer?.id})`;
      },
    });
    const asked: string[] = [];
    const client = createClient({
      languageModel: languageModel(),
      waitFor: async (request) => {
        asked.push(request.kind);
        authed = true;
        return { id: request.id, ok: true };
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [getBalance] });
    stub.requests.length = 0;

    const { result, events } = await run(client, mode, "What is my balance?", { toolkit });

    expect(result.status).toBe("done");
    expect(result.text).toBe("All done.");
    expect(result.model).toBe("m");
    expect(asked).toEqual(["authorization"]);
    expect(seenArgs).toEqual([{ account: "main" }, { account: "main" }]);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]!.output).toMatch(/^balance: \$500 \(answer pnd-/);
    expect(result.usage.totalTokens).toBeGreaterThan(0);

    expect(stub.requests).toHaveLength(2);
    expect(stub.requests.map((r) => r.body.stream === true)).toEqual([mode === "stream", mode === "stream"]);
    const sent = stub.requests[1]!.body.messages as WireMessage[];
    expect(sent.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: result.toolCalls[0]!.output });
    expect(unbalancedReason(neutral(sent))).toBeUndefined();
    if (mode === "stream") {
      const order = (type: string) => events.findIndex((e) => e.type === type);
      expect(events.find((e) => e.type === "tool_call")).toMatchObject({ id: "c1", name: "get_balance" });
      expect(events.find((e) => e.type === "pending")).toMatchObject({ request: { kind: "authorization" } });
      expect(events.find((e) => e.type === "tool_result")).toMatchObject({ id: "c1", isError: false });
      expect(order("tool_call")).toBeLessThan(order("pending"));
      expect(order("pending")).toBeLessThan(order("tool_result"));
      const text = events.map((e) => (e.type === "text" ? e.delta : "")).join("");
      expect(text).toBe("All done.");
      expect(events.at(-1)?.type).toBe("done");
    }
    await toolkit.close();
  });

  it("halts durably on two suspensions and resumes from a JSON checkpoint, one answer at a time", async () => {
    firstTurn = () => ({
      toolCalls: [
        { id: "ca", name: "approve_a", args: {} },
        { id: "cb", name: "approve_b", args: {} },
      ],
    });
    const runs: Record<string, number> = { approve_a: 0, approve_b: 0 };
    const approval = (name: string) =>
      defineTool({
        name,
        description: "Needs approval",
        run: (_args, ctx) => {
          runs[name]!++;
          return ctx?.answer?.ok
            ? `${name} approved`
            : pending({ kind: "approval", prompt: `Approve ${name}?` });
        },
      });
    const toolkit = await createToolkit({
      builtins: false,
      extraTools: [approval("approve_a"), approval("approve_b")],
    });
    const client = createClient({ languageModel: languageModel() });
    stub.requests.length = 0;

    const halted: RunResult = (await run(client, mode, "Do a and b", { toolkit })).result;
    expect(halted.status).toBe("pending");
    expect(halted.suspended?.map((r) => r.prompt)).toEqual(["Approve approve_a?", "Approve approve_b?"]);
    expect(halted.pending).toEqual(halted.suspended?.[0]);
    expect(stub.requests).toHaveLength(1);

    // Through text, as a host would store it; answer b first to show the order is free.
    const stored = JSON.parse(JSON.stringify(halted.checkpoint)) as Checkpoint;
    const second = await client.resume(stored, { id: halted.suspended![1]!.id, ok: true }, { toolkit });
    expect(second.status).toBe("pending");
    expect(second.suspended?.map((r) => r.prompt)).toEqual(["Approve approve_a?"]);
    expect(stub.requests).toHaveLength(1);

    const done = await client.resume(
      JSON.parse(JSON.stringify(second.checkpoint)) as Checkpoint,
      { id: second.pending!.id, ok: true },
      { toolkit },
    );
    expect(done.status).toBe("done");
    expect(done.text).toBe("All done.");
    expect(done.toolCalls.map((c) => c.output)).toEqual(["approve_a approved", "approve_b approved"]);
    // Each tool ran once to suspend and once on its retry; nothing ran twice.
    expect(runs).toEqual({ approve_a: 2, approve_b: 2 });

    expect(stub.requests).toHaveLength(2);
    const sent = stub.requests[1]!.body.messages as WireMessage[];
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool"]);
    expect(sent.slice(2).map((m) => [m.tool_call_id, m.content])).toEqual([
      ["ca", "approve_a approved"],
      ["cb", "approve_b approved"],
    ]);
    expect(unbalancedReason(neutral(sent))).toBeUndefined();
    await toolkit.close();
  });
});

describe("createClient({ languageModel }) with @ai-sdk/anthropic", () => {
  it("resumes a two-call halt and sends both results as tool_result blocks of one user message", async () => {
    firstTurn = () => ({
      toolCalls: [
        { id: "toolu_a", name: "lookup", args: { q: "a" } },
        { id: "toolu_b", name: "confirm", args: {} },
      ],
    });
    const lookup = defineTool({ name: "lookup", description: "d", run: (args) => `found ${String(args.q)}` });
    const confirm = defineTool({
      name: "confirm",
      description: "d",
      run: (_args, ctx) =>
        ctx?.answer ? `confirmed: ${ctx.answer.data?.note}` : pending({ kind: "input", prompt: "Note?" }),
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [lookup, confirm] });
    const model = createAnthropic({ baseURL: stub.baseUrl("anthropic"), apiKey: "k" })("claude-stub");
    const client = createClient({ languageModel: model });
    stub.requests.length = 0;

    const halted = await client.run("look up a, then confirm", { toolkit });
    expect(halted.status).toBe("pending");
    expect(halted.toolCalls.map((c) => c.output)).toEqual(["found a", "Note?"]);
    const done = await client.resume(
      halted.checkpoint!,
      { id: halted.pending!.id, ok: true, data: { note: "yes" } },
      { toolkit },
    );
    expect(done.status).toBe("done");
    expect(done.text).toBe("All done.");

    expect(stub.requests.map((r) => r.style)).toEqual(["anthropic", "anthropic"]);
    const sent = stub.requests[1]!.body.messages as Array<{ role: string; content: any }>;
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(sent[2]!.content.map((b: any) => [b.type, b.tool_use_id, b.content])).toEqual([
      ["tool_result", "toolu_a", "found a"],
      ["tool_result", "toolu_b", "confirmed: yes"],
    ]);
    await toolkit.close();
  });
});
