import type { BenchProvider } from "./bench-database";
import { type BenchSection, type Comparison, compare, type ResultRow } from "./bench-section";
import { runDbChild } from "./db-child";
import type { PeerParams, PeerResult } from "./langgraph-main";

const CONCURRENCY = 32;
const CONCURRENT_CYCLES = 320;

/** Issue target 3: durable park/resume side by side with LangGraph's own checkpointers. */
export const langgraphSection: BenchSection = {
  name: "langgraph-peer",
  title: "Durable park/resume: toolnexus engine vs LangGraph 1.7.3 checkpointers (sync and async durability)",
  async run({ iterations, warmup, smoke, log }) {
    const rows: ResultRow[] = [];
    const comparisons: Comparison[] = [];
    for (const provider of ["sqlite", "postgres"] as BenchProvider[]) {
      const params: PeerParams = {
        provider,
        // The engine section runs the same cycle 1,000 times; a few hundred is plenty for a ratio.
        iterations: smoke ? 1 : Math.min(iterations, 300),
        warmup: smoke ? 0 : Math.min(warmup, 50),
        concurrentCycles: smoke ? 4 : CONCURRENT_CYCLES,
        concurrency: smoke ? 4 : CONCURRENCY,
      };
      const result = await runDbChild<PeerResult>({ script: "bench/langgraph-main.ts", params, log });
      rows.push(...result.rows);
      const ours = result.figures.toolnexus;
      // Below 1 means faster than LangGraph (for the rate: at least as many cycles per second).
      for (const mode of ["sync", "async"] as const) {
        const theirs = result.figures[`langgraph-${mode}`];
        const peer = `LangGraph ${mode}`;
        // The target is the like-for-like mode; the default mode is shown beside it.
        const target = mode === "sync" ? 1 : undefined;
        comparisons.push(
          compare(
            `${provider} start → parked, toolnexus / ${peer}`,
            ours.startToParked / theirs.startToParked,
            target,
          ),
          compare(
            `${provider} answer → retry, toolnexus / ${peer}`,
            ours.answerToRetry / theirs.answerToRetry,
            target,
          ),
          compare(`${provider} whole cycle, toolnexus / ${peer}`, ours.cycle / theirs.cycle, target),
          compare(
            `${provider} ${peer} / toolnexus cycles per second at ${params.concurrency}`,
            theirs.cyclesPerSecond / ours.cyclesPerSecond,
            target,
          ),
        );
      }
    }
    return {
      status: "done",
      rows,
      comparisons,
      notes: [
        "One process per database holds all three: the engine as the web app wires it (bench/bench-engine.ts) and a LangGraph StateGraph (bench/langgraph-peer.ts) with a model node and a tool node that calls interrupt(); all drive the same in-process fake model (benchModelReply).",
        'LangGraph runs twice over, alternating with the engine: with durability "async" (its default: a step\'s checkpoint is written while the next step runs) and "sync" (written before the next step starts, as the engine commits an answer before the tool runs again). The target is judged against "sync".',
        "LangGraph parks with SqliteSaver (its own file, WAL as the saver sets it) or PostgresSaver (same server, its own tables, its own pg pool) and is resumed with new Command({ resume }) on a fresh graph instance over a second saver connection.",
        "toolnexus stores more per cycle: the request row, the answer, the audit entry and the event log; LangGraph stores its checkpoints and pending writes only.",
        "start → parked: toolnexus from startRun to the subscriber receiving the `pending` event (committed first); LangGraph from invoke() to invoke() returning the interrupt (checkpoint committed).",
        "One at a time the three contenders take turns cycle by cycle, who goes first rotating; at concurrency 32 each runs its cycles in two halves ordered toolnexus, LangGraph async, LangGraph sync, then the reverse.",
      ],
    };
  },
};
