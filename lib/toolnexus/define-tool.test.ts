import { describe, expect, it } from "vitest";
import { defineTool } from "./define-tool";
import { pending } from "./pending";

describe("defineTool", () => {
  it("defaults to an empty, closed object schema and the native source", () => {
    const tool = defineTool({ name: "t", description: "d", run: () => "x" });
    expect(tool.inputSchema).toEqual({ type: "object", properties: {}, additionalProperties: false });
    expect(tool.source).toBe("native");
    expect(tool.name).toBe("t");
    expect(tool.description).toBe("d");
  });

  it("takes the source it is given", () => {
    expect(defineTool({ name: "t", description: "d", source: "builtin", run: () => "" }).source).toBe(
      "builtin",
    );
  });

  it("keeps a given schema", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    expect(defineTool({ name: "t", description: "d", inputSchema: schema, run: () => "" }).inputSchema).toBe(
      schema,
    );
  });

  it("turns a string into a successful output and passes args and ctx through", async () => {
    const tool = defineTool({
      name: "echo",
      description: "d",
      run: (args, ctx) => `${String(args.word)}/${ctx?.idempotencyKey}`,
    });
    expect(await tool.execute({ word: "hi" }, { idempotencyKey: "run-1:c1" })).toEqual({
      output: "hi/run-1:c1",
      isError: false,
    });
  });

  it("passes a ToolResult envelope through untouched, including a pending one", async () => {
    const parked = pending({ kind: "approval", prompt: "ok?" });
    expect(await defineTool({ name: "p", description: "d", run: () => parked }).execute({})).toBe(parked);
    const failure = { output: "not found", isError: true };
    expect(await defineTool({ name: "f", description: "d", run: async () => failure }).execute({})).toBe(
      failure,
    );
  });

  it("JSON-stringifies anything else", async () => {
    const run = (value: unknown) => defineTool({ name: "v", description: "d", run: () => value }).execute({});
    expect(await run({ balance: 500, output: "only one key" })).toEqual({
      output: '{"balance":500,"output":"only one key"}',
      isError: false,
    });
    expect(await run(42)).toEqual({ output: "42", isError: false });
    expect(await run(null)).toEqual({ output: "null", isError: false });
    expect(await run(undefined)).toEqual({ output: "", isError: false });
  });

  it("turns a throw (sync or async) into an error result with the message", async () => {
    const sync = defineTool({
      name: "s",
      description: "d",
      run: () => {
        throw new Error("disk full");
      },
    });
    const rejected = defineTool({
      name: "a",
      description: "d",
      run: async () => Promise.reject(new Error("403")),
    });
    expect(await sync.execute({})).toEqual({ output: "disk full", isError: true });
    expect(await rejected.execute({})).toEqual({ output: "403", isError: true });
  });
});
