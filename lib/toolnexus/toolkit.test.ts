import { describe, expect, it } from "vitest";
import { defineTool } from "./define-tool";
import { isToolnexusError } from "./errors";
import { createToolkit } from "./toolkit";
import type { Tool } from "./types";

const weather = defineTool({
  name: "weather",
  description: "Weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: (args) => `sunny in ${String(args.city)}`,
});

describe("createToolkit", () => {
  it("works without options and includes the built-in question tool", async () => {
    const tk = await createToolkit();
    expect(tk.has("question")).toBe(true);
    expect(tk.specs().map((s) => s.name)).toEqual(["question"]);
  });

  it("leaves built-ins out with builtins: false or tools.question: false", async () => {
    expect((await createToolkit({ builtins: false })).has("question")).toBe(false);
    const tk = await createToolkit({ tools: { question: false }, extraTools: [weather] });
    expect(tk.specs().map((s) => s.name)).toEqual(["weather"]);
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
    tk.register(probe);
    expect(tk.has("probe")).toBe(true);
    expect(await tk.execute("weather", { city: "Oslo" })).toEqual({
      output: "sunny in Oslo",
      isError: false,
    });
    await tk.execute("probe", { a: 1 }, { idempotencyKey: "k" });
    expect(seen).toEqual([{ a: 1 }, { idempotencyKey: "k" }]);
  });

  it("refuses a second tool with the same name", async () => {
    const tk = await createToolkit({ builtins: false, extraTools: [weather] });
    let caught: unknown;
    try {
      tk.register(weather);
    } catch (error) {
      caught = error;
    }
    expect(isToolnexusError(caught, "config:invalid")).toBe(true);
    await expect(createToolkit({ extraTools: [weather, weather] })).rejects.toMatchObject({
      code: "config:invalid",
    });
  });

  it("answers an unknown name with an error result rather than a throw", async () => {
    const tk = await createToolkit({ builtins: false });
    expect(await tk.execute("nope", {})).toEqual({ output: "Unknown tool: nope", isError: true });
  });

  it("turns a throw from a hand-built tool into an error result", async () => {
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
    expect(await tk.execute("raw", {})).toEqual({ output: "socket hang up", isError: true });
  });

  it("describes its tools in the OpenAI and Anthropic shapes", async () => {
    const tk = await createToolkit({ builtins: false, extraTools: [weather] });
    expect(tk.openaiTools()).toEqual([
      {
        type: "function",
        function: { name: "weather", description: "Weather for a city", parameters: weather.inputSchema },
      },
    ]);
    expect(tk.anthropicTools()).toEqual([
      { name: "weather", description: "Weather for a city", input_schema: weather.inputSchema },
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
