import { spawn } from "node:child_process";
import { connect } from "node:net";
import path from "node:path";
import type { BenchSection } from "./bench-section";
import { type Comparison, compare, type ResultRow, type SectionOutcome } from "./bench-section";
import { freePort } from "./free-port";
import {
  aiSdkMcpContender,
  type McpTarget,
  type McpTransportKind,
  sdkFloorContender,
  toolnexusMcpContender,
} from "./mcp-contenders";
import { measureAlternating } from "./measure-alternating";
import { pairedDifferences, summarize } from "./stats";

const script = path.resolve(
  import.meta.dirname,
  "../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => resolve(socket.end() !== undefined));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the reference MCP server did not listen on ${port}`);
}

async function measureTransport(kind: McpTransportKind, url: string, iterations: number, warmup: number) {
  const target: McpTarget = { kind, script, url };
  const contenders = [
    await sdkFloorContender(`mcp sdk callTool (${kind})`, target),
    await toolnexusMcpContender(`toolnexus (${kind})`, target),
    await aiSdkMcpContender(`ai-sdk (${kind})`, target),
  ];
  try {
    const samples = await measureAlternating({ contenders, iterations, warmup });
    const rows: ResultRow[] = [];
    const floor = samples.get(contenders[0]!.name)!;
    for (const { name } of contenders) {
      const wall = summarize(samples.get(name)!.wallMs);
      const cpu = summarize(samples.get(name)!.cpuMs);
      rows.push({ label: `${name} wall`, unit: "ms/request", p50: wall.p50, p95: wall.p95, n: wall.n });
      rows.push({ label: `${name} client CPU`, unit: "ms/request", p50: cpu.p50, p95: cpu.p95, n: cpu.n });
      if (name === contenders[0]!.name) continue;
      const extra = summarize(pairedDifferences(samples.get(name)!.wallMs, floor.wallMs));
      rows.push({
        label: `${name} above the bare call, wall`,
        unit: "ms/request",
        p50: extra.p50,
        p95: extra.p95,
        n: extra.n,
      });
    }
    const p50 = (index: number) => summarize(samples.get(contenders[index]!.name)!.wallMs).p50;
    const cpu = (index: number) => summarize(samples.get(contenders[index]!.name)!.cpuMs).p50;
    const comparisons: Comparison[] = [
      compare(`toolnexus / ai-sdk, one MCP tool call through the loop (${kind}, wall p50)`, p50(1) / p50(2)),
      compare(
        `toolnexus / ai-sdk, one MCP tool call through the loop (${kind}, client CPU p50)`,
        cpu(1) / cpu(2),
      ),
      compare(`toolnexus / bare SDK callTool (${kind}, wall p50)`, p50(1) / p50(0)),
    ];
    return { rows, comparisons };
  } finally {
    for (const contender of contenders) await contender.close();
  }
}

/** Results 6 in docs/benchmarks.md: a trivial MCP tool through the toolnexus loop against the AI SDK's own MCP client. */
export const mcpSection: BenchSection = {
  name: "mcp",
  title: "MCP: one trivial tool call (reference server's echo) through the loop, stdio and HTTP",
  async run(context): Promise<SectionOutcome> {
    const port = await freePort();
    const http = spawn(process.execPath, [script, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: "ignore",
    });
    try {
      await listening(port);
      const url = `http://127.0.0.1:${port}/mcp`;
      const rows: ResultRow[] = [];
      const comparisons: Comparison[] = [];
      for (const kind of ["stdio", "http"] as const) {
        context.log(`mcp: ${kind}`);
        const measured = await measureTransport(kind, url, context.iterations, context.warmup);
        rows.push(...measured.rows);
        comparisons.push(...measured.comparisons);
      }
      return {
        status: "done",
        rows,
        comparisons,
        notes: [
          "Each request: an in-process model calls the reference server's echo once, then answers; the MCP call is the only I/O.",
          "toolnexus = createToolkit({ mcpConfig }) + createClientFromDriver(createInProcessDriver()).run; ai-sdk = createMCPClient().tools() + generateText with a mock model.",
          "mcp sdk callTool = the official SDK client's callTool alone: the round trip every contender pays.",
          "Tools are listed once per connection, before timing; every contender has its own connection (its own child over stdio).",
        ],
      };
    } finally {
      http.kill("SIGTERM");
    }
  },
};
