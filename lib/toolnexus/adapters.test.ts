import { describe, expect, it } from "vitest";
import { sanitize, toAnthropic, toGemini, toOpenAI } from "./adapters";
import { defineTool } from "./define-tool";

describe("adapters", () => {
  it("sanitize keeps [a-zA-Z0-9_-] and turns every other character into _", () => {
    expect(sanitize("srv one/tool.v2:x")).toBe("srv_one_tool_v2_x");
    expect(sanitize("Keep_this-1")).toBe("Keep_this-1");
    expect(sanitize("é")).toBe("_");
  });

  it("declares tools in each provider's shape", () => {
    const schema = { type: "object", properties: { q: { type: "string" } } };
    const tool = defineTool({ name: "find", description: "Finds", inputSchema: schema, run: () => "" });
    expect(toOpenAI([tool])).toEqual([
      { type: "function", function: { name: "find", description: "Finds", parameters: schema } },
    ]);
    expect(toAnthropic([tool])).toEqual([{ name: "find", description: "Finds", input_schema: schema }]);
    expect(toGemini([tool, tool])).toEqual([
      {
        functionDeclarations: [
          { name: "find", description: "Finds", parameters: schema },
          { name: "find", description: "Finds", parameters: schema },
        ],
      },
    ]);
    expect(toGemini([])).toEqual([{ functionDeclarations: [] }]);
  });
});
