import { describe, expect, it } from "vitest";
import { createClient } from "./client";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { RUN_MODES, resumeIn, runIn } from "./testing/run-modes";
import { toolsThenText } from "./testing/tools-then-text";
import { useStubLlmServer } from "./testing/use-stub-llm-server";
import { wireToolResults, wireUnbalancedReason, wireUserTexts } from "./testing/wire-transcript";
import { createToolkit } from "./toolkit";

const STYLES = ["openai", "anthropic"] as const;

// One stub for the file; each test installs the reply it needs.
const stub = useStubLlmServer();

describe.each(STYLES)("createClient over HTTP, %s style", (style) => {
  const clientWith = (extra: Parameters<typeof createClient>[0] extends infer O ? Partial<O> : never = {}) =>
    createClient({
      baseUrl: stub.server.baseUrl(style),
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
      toolsThenText(stub, [{ id: "c1", name: "get_balance" }], () => "Your balance is $500.");
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
      expect(stub.server.requests).toHaveLength(2);
      expect(stub.server.requests.map((r) => r.body.stream === true)).toEqual([
        mode === "stream",
        mode === "stream",
      ]);
      expect(wireToolResults(stub.server.requests[1]!).map(([, content]) => content)).toEqual([
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
      toolsThenText(stub, [{ id: "c1", name: "pick_env" }], () => "Deployment started.");
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
      toolsThenText(stub, [{ id: "c1", name: "stubborn" }], () => "Gave up asking.");
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
      stub.server.requests.length = 0;
      stub.reply = (request) =>
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
      const fedBack = wireToolResults(stub.server.requests[1]!);
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
        stub,
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
      expect(stub.server.requests).toHaveLength(1);

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
      expect(stub.server.requests).toHaveLength(2);
      for (const request of stub.server.requests) expect(wireUnbalancedReason(request)).toBeUndefined();
      expect(wireUserTexts(stub.server.requests[1]!).filter((t) => t !== "")).toEqual(["do a and b"]);
    });
  });
});
