import { createQuestionTool, defineTool, pending, pendingOf } from "toolnexus";
import { describe, expect, it } from "vitest";
import { withExpiry } from "./with-expiry";

const clock = () => new Date("2030-01-01T00:00:00.000Z");

describe("withExpiry", () => {
  it("adds an expiry to the built-in question tool's request and keeps everything else", async () => {
    const inner = createQuestionTool();
    const tool = withExpiry(inner, { clock, ttlMs: 60_000 });
    expect({ name: tool.name, inputSchema: tool.inputSchema }).toEqual({
      name: inner.name,
      inputSchema: inner.inputSchema,
    });
    const result = await tool.execute({ questions: [{ question: "Staging or production?" }] });
    expect(result.isError).toBe(true);
    expect(pendingOf(result)).toMatchObject({
      kind: "question",
      prompt: "Staging or production?",
      data: { questions: [{ question: "Staging or production?" }] },
      expiresAt: "2030-01-01T00:01:00.000Z",
    });
  });

  it("leaves a tool's own expiry and ordinary results alone", async () => {
    const own = defineTool({
      name: "own",
      description: "d",
      run: (args) =>
        args.suspend
          ? pending({ kind: "input", prompt: "p", expiresAt: "2031-01-01T00:00:00.000Z" })
          : "done",
    });
    const tool = withExpiry(own, { clock, ttlMs: 60_000 });
    expect(pendingOf(await tool.execute({ suspend: true }))?.expiresAt).toBe("2031-01-01T00:00:00.000Z");
    expect(await tool.execute({})).toEqual({ output: "done", isError: false });
  });

  it("passes the answer through on the retry", async () => {
    const tool = withExpiry(createQuestionTool(), { clock, ttlMs: 60_000 });
    const result = await tool.execute(
      { questions: [{ question: "Name?" }] },
      { answer: { id: "r", ok: true, data: { "Name?": "Al" } } },
    );
    expect(result).toEqual({ output: '{"Name?":"Al"}', isError: false });
  });
});
