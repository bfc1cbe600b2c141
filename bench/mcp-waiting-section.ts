import { type BenchSection, compare, type ResultRow } from "./bench-section";
import { runDbChild } from "./db-child";
import type { McpWaitingParams, McpWaitingResult } from "./mcp-waiting-main";

const CALLS = 1_000;
// The MCP server's issue asks that 1,000 waiting calls cost the instance under 50 MB.
const TARGET_MB = 50;

/** Results 11 in docs/benchmarks.md: what calls waiting on /api/mcp cost the instance holding them. */
export const mcpWaitingSection: BenchSection = {
  name: "mcp-waiting",
  title: "Memory of the MCP server with 1,000 calls waiting for answers",
  async run({ smoke, log }) {
    const params: McpWaitingParams = smoke
      ? { calls: 20, warmupCalls: 5 }
      : { calls: CALLS, warmupCalls: 50 };
    const result = await runDbChild<McpWaitingResult>({
      script: "bench/mcp-waiting-main.ts",
      params,
      nodeArgs: ["--expose-gc"],
      // One token holds every call: its waiting limit and rate limit are lifted for the bench.
      env: {
        TOOLNEXUS_MCP_MAX_WAITING: String(params.calls * 2),
        TOOLNEXUS_API_RATE_LIMIT: String(params.calls * 100),
        LOG_LEVEL: "warn",
      },
      log,
    });
    if (result.answered !== params.calls) {
      throw new Error(`expected ${params.calls} open requests to answer, found ${result.answered}`);
    }
    const { idle, waiting } = result;
    const heapDeltaMb = waiting.heapUsedMb - idle.heapUsedMb;
    const row = (label: string, unit: string, value: number): ResultRow => ({
      label,
      unit,
      p50: value,
      n: 1,
    });
    return {
      status: "done",
      rows: [
        row("idle server (warmed up, after GC)", "MB heap", idle.heapUsedMb),
        row(`${params.calls} calls waiting (after GC)`, "MB heap", waiting.heapUsedMb),
        row("idle server (warmed up, after GC)", "MB RSS", idle.rssMb),
        row(`${params.calls} calls waiting (after GC)`, "MB RSS", waiting.rssMb),
        {
          label: "heap per waiting call",
          unit: "KB",
          p50: (heapDeltaMb * 1024) / params.calls,
          n: params.calls,
        },
      ],
      comparisons: [
        compare(`heap added by ${params.calls} waiting calls / ${TARGET_MB} MB`, heapDeltaMb / TARGET_MB, 1),
        compare(`RSS with ${params.calls} waiting calls / idle RSS`, waiting.rssMb / idle.rssMb),
      ],
      notes: [
        `One instance: the engine on SQLite, /api/mcp served by a plain node:http server (as serveMcp runs under Next), ${params.warmupCalls} permission prompts made and answered to warm up, then ${params.calls} permission prompts of one token held open until all are waiting, measured after two forced GCs, then answered; every call must get its answer.`,
        "The calls come from a separate process (plain HTTP, the JSON-RPC body the SDK's client sends), so their sockets are not counted as the server's.",
      ],
    };
  },
};
