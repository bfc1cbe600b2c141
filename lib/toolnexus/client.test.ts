import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createInProcessClient } from "./client";
import { defineTool } from "./define-tool";
import { isToolnexusError } from "./errors";
import { pending } from "./pending";
import { createStubLlmServer, type StubLlmServer, type StubReply, type StubRequest } from "./testing/index";
import { RUN_MODES, resumeIn, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { wireToolResults, wireUnbalancedReason, wireUserTexts } from "./testing/wire-transcript";
import { createToolkit } from "./toolkit";

const STYLES = ["openai", "anthropic"] as const;

// One stub for the file; each test installs the reply it needs.
let server: StubLlmServer;
let reply: (request: StubRequest) => StubReply = () => ({ text: "unset" });
beforeAll(async () => {
  server = await createStubLlmServer((request) => reply(request));
});
afterAll(() => server.close());

/** First request: call `calls`; once tool results came back: answer `text`. */
function toolsThenText(calls: Array<{ id: string; name: string }>, text: (results: string[]) => string) {
  server.requests.length = 0;
  reply = (request) => {
    const results = wireToolResults(request);
    return results.length === 0
      ? { toolCalls: calls }
      : { text: text(results.map(([, content]) => content)) };
  };
}

describe.each(STYLES)("createClient over HTTP, %s style", (style) => {
  const clientWith = (extra: Parameters<typeof createClient>[0] extends infer O ? Partial<O> : never = {}) =>
    createClient({
      baseUrl: server.baseUrl(style),
      style,
      model: "stub-model",
      apiKey: "test-key",
      ...extra,
    });

  describe.each(RUN_MODES)("%s", (mode) => {
    it("resolves an authorization suspension through waitFor and retries the call", async () => {
      let authed = false;
      const getBalance = defineTool({
        name: "get_balance",
        description: "Return the account balance. Requires login first.",
        inputSchema: { type: "object", properties: {} },
        run: (_args, ctx) =>
          authed
            ? `balance: $500 (via answer ${ctx?.answer?.id})`
            : pending({ kind: "authorization", prompt: "Log in first", url: "https://example.com/login" }),
      });
      toolsThenText([{ id: "c1", name: "get_balance" }], () => "Your balance is $500.");
      const client = clientWith({
        waitFor: async (request) => {
          authed = true;
          return { id: request.id, ok: true };
        },
      });
      const toolkit = await createToolkit({ builtins: false, extraTools: [getBalance] });
      const { result } = await runIn(mode, client, "what is my balance?", { toolkit });
      expect(result.status).toBe("done");
      expect(result.text).toBe("Your balance is $500.");
      expect(result.toolCalls[0]!.output).toMatch(/^balance: \$500 \(via answer pnd-[0-9a-z]+-\d+\)$/);
      expect(server.requests).toHaveLength(2);
      expect(server.requests.map((r) => r.body.stream === true)).toEqual([
        mode === "stream",
        mode === "stream",
      ]);
      expect(wireToolResults(server.requests[1]!).map(([, content]) => content)).toEqual([
        result.toolCalls[0]!.output,
      ]);
    });

    it("hands an input answer's data to the retried tool", async () => {
      const pickEnv = defineTool({
        name: "pick_env",
        description: "Deploy to an environment the user picks",
        run: (_args, ctx) =>
          ctx?.answer
            ? `deploying to ${String(ctx.answer.data?.env)}`
            : pending({ kind: "input", prompt: "Which environment?" }),
      });
      toolsThenText([{ id: "c1", name: "pick_env" }], () => "Deployment started.");
      const client = clientWith({
        waitFor: async (request) => ({ id: request.id, ok: true, data: { env: "staging" } }),
      });
      const toolkit = await createToolkit({ builtins: false, extraTools: [pickEnv] });
      const { result } = await runIn(mode, client, "deploy it", { toolkit });
      expect(result.toolCalls[0]!.output).toBe("deploying to staging");
      expect(result.text).toBe("Deployment started.");
    });

    it("stops a tool that re-suspends after its answer with unresolved: <prompt>", async () => {
      let asks = 0;
      const stubborn = defineTool({
        name: "stubborn",
        description: "Always needs approval",
        run: () => pending({ kind: "approval", prompt: "still need approval" }),
      });
      toolsThenText([{ id: "c1", name: "stubborn" }], () => "Gave up asking.");
      const client = clientWith({
        waitFor: async (request) => {
          asks += 1;
          return { id: request.id, ok: true };
        },
      });
      const toolkit = await createToolkit({ builtins: false, extraTools: [stubborn] });
      const { result } = await runIn(mode, client, "try", { toolkit });
      expect(result.status).toBe("done");
      expect(result.toolCalls[0]!.output).toBe("unresolved: still need approval");
      expect(asks).toBe(1);
    });

    it("feeds an unknown tool and arguments that are not JSON back to the model as errors", async () => {
      server.requests.length = 0;
      reply = (request) =>
        wireToolResults(request).length === 0
          ? {
              toolCalls: [
                { id: "c1", name: "no_such_tool" },
                { id: "c2", name: "echo", rawArgs: "{oops" },
              ],
            }
          : { text: "recovered" };
      const echo = defineTool({ name: "echo", description: "d", run: () => "echoed" });
      const toolkit = await createToolkit({ builtins: false, extraTools: [echo] });
      const { result } = await runIn(mode, clientWith(), "go", { toolkit });
      expect(result.status).toBe("done");
      expect(result.text).toBe("recovered");
      expect(result.toolCalls.map((c) => c.isError)).toEqual([true, true]);
      expect(result.toolCalls[0]!.output).toContain("no_such_tool");
      const fedBack = wireToolResults(server.requests[1]!);
      expect(fedBack.map(([id]) => id)).toEqual(["c1", "c2"]);
      expect(fedBack[1]![1]).toContain("{oops");
    });

    it("halts durably on the first of two suspensions, then resumes both to a balanced finish", async () => {
      const seen: Record<string, unknown> = {};
      const gate = (name: string) =>
        defineTool({
          name,
          description: "d",
          run: (_args, ctx) => {
            if (!ctx?.answer) return pending({ kind: "approval", prompt: `approve ${name}` });
            seen[name] = ctx.answer;
            return `${name} approved`;
          },
        });
      toolsThenText(
        [
          { id: "c-a", name: "a" },
          { id: "c-b", name: "b" },
        ],
        (results) => `done: ${results.join(", ")}`,
      );
      const client = clientWith();
      const toolkit = await createToolkit({ builtins: false, extraTools: [gate("a"), gate("b")] });
      const halted = (await runIn(mode, client, "do a and b", { toolkit })).result;
      expect(halted.status).toBe("pending");
      expect(halted.pending?.prompt).toBe("approve a");
      expect(halted.toolCalls.map((c) => c.name)).toEqual(["a"]);
      expect(halted.suspended!.map((q) => q.prompt)).toEqual(["approve a", "approve b"]);

      const stored = JSON.parse(JSON.stringify(halted.checkpoint));
      const [a, b] = halted.suspended!;
      const halfway = (await resumeIn(mode, client, stored, { id: b!.id, ok: true }, { toolkit })).result;
      expect(halfway.status).toBe("pending");
      expect(halfway.pending).toEqual(a);
      expect(server.requests).toHaveLength(1);

      const { result } = await resumeIn(
        mode,
        client,
        halfway.checkpoint!,
        { id: a!.id, ok: true, data: { n: 1 } },
        { toolkit },
      );
      expect(result.status).toBe("done");
      expect(result.text).toBe("done: a approved, b approved");
      expect(seen).toEqual({ a: { id: a!.id, ok: true, data: { n: 1 } }, b: { id: b!.id, ok: true } });
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests) expect(wireUnbalancedReason(request)).toBeUndefined();
      expect(wireUserTexts(server.requests[1]!).filter((t) => t !== "")).toEqual(["do a and b"]);
    });
  });
});

describe("createClient configuration", () => {
  it("throws typed errors synchronously for a missing key or an unknown style", () => {
    const attempt = (options: Record<string, unknown>) => {
      try {
        createClient({ baseUrl: "http://127.0.0.1:9", model: "m", ...options } as never);
      } catch (error) {
        return isToolnexusError(error) ? error.code : String(error);
      }
      return "created";
    };
    expect(attempt({ style: "openai" })).toBe("config:missing_api_key");
    expect(attempt({ style: "cohere", apiKey: "k" })).toBe("config:unknown_style");
    expect(attempt({ style: "openai", apiKey: "k" })).toBe("created");
  });

  it("uses a given driver as-is", async () => {
    const driver = createScriptedDriver([{ text: "from the driver" }]);
    const result = await createClient({ driver, systemPrompt: "sys" }).run("hi");
    expect(result.text).toBe("from the driver");
    expect(driver.inputs[0]!.system).toBe("sys");
  });

  it("drives the loop with an AI SDK language model", async () => {
    toolsThenText([{ id: "c1", name: "ping" }], (results) => `model saw ${results.join("")}`);
    const provider = createOpenAICompatible({ name: "stub", baseURL: server.baseUrl("openai"), apiKey: "k" });
    const ping = defineTool({ name: "ping", description: "d", run: () => "pong" });
    const toolkit = await createToolkit({ builtins: false, extraTools: [ping] });
    const result = await createClient({ languageModel: provider.chatModel("stub-model") }).run("ping", {
      toolkit,
    });
    expect(result.status).toBe("done");
    expect(result.text).toBe("model saw pong");
  });
});

describe("createInProcessClient", () => {
  it("runs the same loop, suspension rules included, around a function", async () => {
    const client = createInProcessClient({
      model: "demo",
      generate: (input) => {
        const last = input.messages.at(-1);
        return last?.role === "tool"
          ? { text: `tool said: ${last.content}` }
          : { toolCalls: [{ name: "ask" }] };
      },
    });
    const ask = defineTool({
      name: "ask",
      description: "d",
      run: (_args, ctx) =>
        ctx?.answer ? `got ${String(ctx.answer.data?.v)}` : pending({ kind: "input", prompt: "v?" }),
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [ask] });
    const halted = await client.run("go", { toolkit });
    expect(halted.status).toBe("pending");
    expect(halted.model).toBe("demo");
    const result = await client.resume(
      halted.checkpoint!,
      { id: halted.pending!.id, ok: true, data: { v: 7 } },
      { toolkit },
    );
    expect(result.text).toBe("tool said: got 7");
  });
});
