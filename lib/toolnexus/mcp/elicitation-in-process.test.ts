import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolkit, type Toolkit } from "../toolkit";
import type { Answer, Request } from "../types";
import type { McpServerConfig } from "./config";
import { clientCalling } from "./testing/scripted-client";
import {
  demoStdio,
  everythingStdio,
  httpConfig,
  type ServerProcess,
  startDemoHttp,
  startEverythingHttp,
} from "./testing/servers";

// Elicitations answered in-process through waitFor, against real servers on both transports.
let demoHttp: ServerProcess;
let everythingHttp: ServerProcess;
beforeAll(async () => {
  [demoHttp, everythingHttp] = await Promise.all([startDemoHttp(), startEverythingHttp()]);
});
afterAll(() => Promise.all([demoHttp?.stop(), everythingHttp?.stop()]));

const entry = ({ transport: _t, ...rest }: McpServerConfig) => rest;
const formValue = { name: "Ana", check: true, email: "ana@example.com", integer: 7 };

describe.each([
  ["stdio", () => demoStdio(), () => everythingStdio()],
  ["Streamable HTTP", () => httpConfig(demoHttp.port), () => httpConfig(everythingHttp.port)],
])("elicitation through waitFor over %s", (_transport, demo, everything) => {
  let toolkit: Toolkit;
  beforeAll(async () => {
    toolkit = await createToolkit({
      builtins: false,
      mcpConfig: { mcpServers: { demo: entry(demo()), ev: entry(everything()) } },
    });
  });
  afterAll(() => toolkit?.close());

  async function run(
    name: string,
    args: Record<string, unknown>,
    answer: (r: Request) => Omit<Answer, "id">,
  ) {
    const asked: Request[] = [];
    const client = clientCalling([{ id: "c1", name, args }], {
      waitFor: async (request) => {
        asked.push(request);
        return { id: request.id, ...answer(request) };
      },
    });
    const result = await client.run("go", { toolkit });
    return { asked, result, output: result.toolCalls[0]!.output };
  }

  it("turns a form elicitation into an input request and gives the server the accepted content", async () => {
    const { asked, output, result } = await run("ev_trigger-elicitation-request", {}, () => ({
      ok: true,
      data: formValue,
    }));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      kind: "input",
      prompt: "Please provide inputs for the following fields:",
      data: {
        schema: { type: "object", required: ["name"], properties: { email: { format: "email" } } },
        mcp: { server: "ev", tool: "trigger-elicitation-request", mode: "form", earlier: [] },
      },
    });
    expect(output).toContain("User provided the requested information");
    expect(output).toContain("- Name: Ana");
    expect(output).toContain('"action": "accept"');
    expect(result.status).toBe("done");
  });

  it.each([
    ["declined", "decline", "User declined"],
    ["cancelled", "cancel", "User cancelled"],
    ["expired", "cancel", "User cancelled"],
  ] as const)("maps a form answered %s to %s", async (reason, action, text) => {
    const { output } = await run("ev_trigger-elicitation-request", {}, () => ({ ok: false, reason }));
    expect(output).toContain(text);
    expect(output).toContain(`"action": "${action}"`);
  });

  it.each([
    [{ ok: true }, "User completed the URL elicitation flow"],
    [{ ok: false, reason: "declined" }, "User declined to open the URL"],
    [{ ok: false, reason: "cancelled" }, "User cancelled the URL elicitation"],
  ] as const)("turns a URL elicitation into an authorization request (%j)", async (answer, text) => {
    const url = "https://auth.example.com/consent";
    const { asked, output } = await run(
      "ev_trigger-url-elicitation",
      { url, elicitationId: "e-1" },
      () => answer,
    );
    expect(asked).toEqual([
      expect.objectContaining({
        kind: "authorization",
        url,
        prompt: "Please open the link to complete this action.",
        data: { mcp: expect.objectContaining({ mode: "url", path: "request", elicitationId: "e-1" }) },
      }),
    ]);
    expect(output).toContain(text);
  });

  it("follows the URL error path (-32042): authorization first, then the same call again", async () => {
    const url = "https://auth.example.com/after";
    const { asked, output } = await run("ev_trigger-url-elicitation", { url, errorPath: true }, () => ({
      ok: true,
    }));
    // The prerequisite comes as the error; the retried call then asks on the request path.
    expect(asked.map((r) => [r.kind, r.data?.mcp && (r.data.mcp as { path: string }).path])).toEqual([
      ["authorization", "error"],
      ["authorization", "request"],
    ]);
    expect(asked[0]!.url).toBe("https://modelcontextprotocol.io");
    expect(output).toContain("User completed the URL elicitation flow");
  });

  it("declining the error path's authorization ends the call without repeating it", async () => {
    const { asked, output } = await run(
      "ev_trigger-url-elicitation",
      { url: "https://auth.example.com/no", errorPath: true, elicitationId: "declined-one" },
      () => ({ ok: false, reason: "declined" }),
    );
    expect(asked).toHaveLength(1);
    expect(output).toMatch(/^declined: /);
  });

  it("answers a tool that elicits twice in one call, carrying the first answer on the second request", async () => {
    const { asked, output } = await run("demo_close_ticket", { id: 2 }, (request) =>
      request.prompt.startsWith("How")
        ? { ok: true, data: { resolution: "fixed" } }
        : { ok: true, data: { confirm: true } },
    );
    expect(asked.map((r) => r.prompt)).toEqual(["How was ticket #2 resolved?", "Close ticket #2 as fixed?"]);
    expect((asked[1]!.data!.mcp as { earlier: unknown[] }).earlier).toEqual([
      expect.objectContaining({
        mode: "form",
        message: "How was ticket #2 resolved?",
        reply: { action: "accept", content: { resolution: "fixed" } },
      }),
    ]);
    expect(output).toBe("Closed ticket #2 as fixed");
  });

  it("refuses an answer that does not fit the requested schema and asks again; the server never sees it", async () => {
    const { asked, output } = await run("demo_open_ticket", {}, (request) =>
      request.data?.mcp && (request.data.mcp as { refused?: string }).refused
        ? { ok: true, data: { title: "Printer on fire", priority: "high" } }
        : { ok: true, data: { title: "x", priority: "urgent" } },
    );
    expect(asked).toHaveLength(2);
    expect(asked[1]!.prompt).toBe(asked[0]!.prompt);
    expect((asked[1]!.data!.mcp as { refused: string }).refused).toMatch(/title|priority/);
    expect(output).toMatch(/^Opened #\d+ \[open\] \(high\) Printer on fire/);
  });
});
