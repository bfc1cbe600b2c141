import { describe, expect, it, vi } from "vitest";
import { defineTool } from "./define-tool";
import { createToolkit } from "./toolkit";
import type { Tool } from "./types";

const weather = defineTool({
  name: "weather",
  description: "Weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: (args) => `sunny in ${String(args.city)}`,
});

describe("createToolkit", () => {
  it("works without options and offers the ten built-ins", async () => {
    const tk = await createToolkit();
    expect(tk.specs().map((s) => s.name)).toEqual([
      "bash",
      "read",
      "write",
      "edit",
      "grep",
      "glob",
      "webfetch",
      "question",
      "apply_patch",
      "todowrite",
    ]);
    expect(new Set(tk.tools().map((t) => t.source))).toEqual(new Set(["builtin"]));
    const partial = await createToolkit({ builtins: { tools: { bash: false, write: false, nope: false } } });
    expect(partial.tools()).toHaveLength(8);
    expect(partial.has("bash") || partial.has("write")).toBe(false);
  });

  it("leaves built-ins out when switched off, wholly or by name", async () => {
    for (const builtins of [
      false,
      { disabled: true },
      { enabled: false },
      { enabled: true, disabled: true },
    ]) {
      expect((await createToolkit({ builtins })).tools()).toEqual([]);
    }
    const tk = await createToolkit({
      builtins: { tools: { question: false, nonsense: false } },
      extraTools: [weather],
    });
    expect(tk.has("question")).toBe(false);
    expect(
      tk
        .specs()
        .map((s) => s.name)
        .at(-1),
    ).toBe("weather");
    // Switched off as a whole, a per-tool `true` does not bring one back.
    expect(
      (await createToolkit({ builtins: { enabled: false, tools: { question: true } } })).tools(),
    ).toEqual([]);
    expect((await createToolkit({ builtins: { tools: { question: true } } })).get("question")?.source).toBe(
      "builtin",
    );
  });

  it("leaves out the tools disableTools names, built-in or the host's", async () => {
    const tk = await createToolkit({
      disableTools: ["bash", "write", "weather", "unknown"],
      extraTools: [weather],
    });
    expect(tk.has("bash") || tk.has("write") || tk.has("weather")).toBe(false);
    expect(tk.has("read")).toBe(true);
  });

  it("lets a host tool named like a built-in replace it", async () => {
    const own = defineTool({ name: "question", description: "mine", run: () => "asked my way" });
    const tk = await createToolkit({ builtins: { tools: { bash: false } }, extraTools: [own] });
    expect(tk.get("question")).toBe(own);
    expect(tk.tools().filter((t) => t.name === "question")).toHaveLength(1);
    expect(await tk.execute("question", {})).toEqual({ output: "asked my way", isError: false });
  });

  it("registers tools and executes them by name with args and ctx", async () => {
    const seen: unknown[] = [];
    const probe = defineTool({
      name: "probe",
      description: "d",
      run: (args, ctx) => {
        seen.push(args, ctx);
        return "ok";
      },
    });
    const tk = await createToolkit({ builtins: false, extraTools: [weather] });
    expect(tk.register(probe)).toBe(tk);
    expect(tk.has("probe")).toBe(true);
    expect(tk.get("probe")).toBe(probe);
    expect(tk.get("nope")).toBeUndefined();
    expect(await tk.execute("weather", { city: "Oslo" })).toEqual({
      output: "sunny in Oslo",
      isError: false,
    });
    await tk.execute("probe", { a: 1 }, { idempotencyKey: "k" });
    expect(seen).toEqual([{ a: 1 }, { idempotencyKey: "k" }]);
  });

  it("keeps the first of two tools with the same name, with a warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const other = defineTool({ name: "weather", description: "second", run: () => "never" });
      const tk = await createToolkit({ builtins: false, extraTools: [weather, other] });
      const late = defineTool({ name: "late", description: "d", run: () => "late" });
      tk.register(other, late).register(other);
      expect(tk.tools()).toEqual([weather, late]);
      expect(warn.mock.calls.map((call) => call[0])).toEqual(
        Array(3).fill('[toolnexus] duplicate tool name "weather" — keeping first'),
      );
      expect(() => tk.register({ name: "", execute: undefined } as unknown as Tool)).toThrowError(
        expect.objectContaining({ code: "config:invalid" }),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("answers an unknown name with an error result rather than a throw", async () => {
    const tk = await createToolkit({ builtins: false });
    expect(await tk.execute("nope", {})).toEqual({ output: "Unknown tool: nope", isError: true });
  });

  it("passes a hand-built tool's throw on (the loop reports it to the model)", async () => {
    const raw: Tool = {
      name: "raw",
      description: "d",
      inputSchema: {},
      source: "custom",
      execute: async () => {
        throw new Error("socket hang up");
      },
    };
    const tk = await createToolkit({ builtins: false, extraTools: [raw] });
    await expect(tk.execute("raw", {})).rejects.toThrow("socket hang up");
  });

  it("describes its tools in the OpenAI, Anthropic and Gemini shapes", async () => {
    const tk = await createToolkit({ builtins: false, extraTools: [weather] });
    expect(tk.toOpenAI()).toEqual([
      {
        type: "function",
        function: { name: "weather", description: "Weather for a city", parameters: weather.inputSchema },
      },
    ]);
    expect(tk.toAnthropic()).toEqual([
      { name: "weather", description: "Weather for a city", input_schema: weather.inputSchema },
    ]);
    expect(tk.toGemini()).toEqual([
      {
        functionDeclarations: [
          { name: "weather", description: "Weather for a city", parameters: weather.inputSchema },
        ],
      },
    ]);
    expect(tk.specs()).toEqual([
      { name: "weather", description: "Weather for a city", inputSchema: weather.inputSchema },
    ]);
  });

  it("has no tools after close", async () => {
    const tk = await createToolkit({ extraTools: [weather] });
    await tk.close();
    expect(tk.has("weather")).toBe(false);
    expect(tk.specs()).toEqual([]);
  });
});
