import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";

describe("client.metrics()", () => {
  it("is valid Prometheus text before any activity, with every series declared", () => {
    const client = createClientFromDriver(createScriptedDriver([]));
    const text = client.metrics();
    for (const name of ["llm_requests_total", "llm_tokens_total", "tool_calls_total", "run_errors_total"]) {
      expect(text).toContain(`# TYPE toolnexus_${name} counter`);
    }
    expect(text).toContain("# TYPE toolnexus_llm_request_duration_seconds histogram");
    expect(text.split("\n").filter((line) => line && !line.startsWith("#"))).toEqual([]);
  });

  it("escapes backslashes, quotes and newlines in label values", async () => {
    const odd = defineTool({ name: 'say "hi"\\\nnow', description: "d", run: () => "ok" });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "c1", name: odd.name }] }, { text: "done" }]);
    const client = createClientFromDriver(driver);
    await client.run("go", { toolkit: await createToolkit({ builtins: false, extraTools: [odd] }) });
    expect(client.metrics()).toContain(
      'toolnexus_tool_calls_total{tool="say \\"hi\\"\\\\\\nnow",source="native",is_error="false",pending="false"} 1',
    );
  });

  it("counts model calls, tokens, tool calls (a suspension as pending) and failed runs", async () => {
    const asks = defineTool({
      name: "asks",
      description: "d",
      run: (_args, ctx) => (ctx?.answer ? "fine" : pending({ kind: "approval", prompt: "ok?" })),
    });
    const driver = createScriptedDriver([
      {
        toolCalls: [{ id: "c1", name: "asks" }],
        usage: { promptTokens: 5, completionTokens: 4, totalTokens: 9 },
      },
      { text: "done", usage: { promptTokens: 6, completionTokens: 1, totalTokens: 7 } },
    ]);
    const client = createClientFromDriver(driver, { waitFor: async (r) => ({ id: r.id, ok: true }) });
    const toolkit = await createToolkit({ builtins: false, extraTools: [asks] });
    await client.run("go", { toolkit });
    await expect(client.run("again", { toolkit })).rejects.toThrow(/no step 2/);
    const text = client.metrics();
    expect(text).toContain('toolnexus_llm_requests_total{model="scripted-model",status="ok"} 2');
    expect(text).toContain('toolnexus_llm_requests_total{model="scripted-model",status="error"} 1');
    expect(text).toContain('toolnexus_llm_tokens_total{type="prompt"} 11');
    expect(text).toContain('toolnexus_llm_tokens_total{type="completion"} 5');
    expect(text).toContain(
      'toolnexus_tool_calls_total{tool="asks",source="native",is_error="false",pending="true"} 1',
    );
    expect(text).toContain(
      'toolnexus_tool_calls_total{tool="asks",source="native",is_error="false",pending="false"} 1',
    );
    expect(text).toContain(
      'toolnexus_llm_request_duration_seconds_bucket{model="scripted-model",le="+Inf"} 3',
    );
    expect(text).toContain('toolnexus_llm_request_duration_seconds_count{model="scripted-model"} 3');
    expect(text).toContain('toolnexus_run_errors_total{model="scripted-model"} 1');
    for (const line of text.split("\n").filter(Boolean)) {
      expect(line).toMatch(/^#|^[a-zA-Z_][a-zA-Z0-9_]*(\{[^}]*\})? -?[0-9.eE+]+$/);
    }
  });
});
