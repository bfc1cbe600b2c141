import {
  createClientFromDriver,
  createInProcessDriver,
  createToolkit as createLibraryToolkit,
  defineTool,
  type Message,
  pending,
} from "toolnexus";
import type { EngineOptions } from "@/lib/engine/engine-types";

/** When, in `performance.now()` time, the bench tool suspended and was retried, per run. */
export interface ToolMarks {
  suspendedAt?: number;
  retriedAt?: number;
}

export const BENCH_MODEL = "bench-in-process-model";

/** The fake model, shared with the LangGraph peer: a tool call first, then a fixed answer. */
export function benchModelReply(
  messages: readonly Message[],
): { text: string } | { toolCalls: { name: string; args: Record<string, unknown> }[] } {
  return messages.at(-1)?.role === "tool"
    ? { text: "Step approved and done." }
    : { toolCalls: [{ name: "approve_step", args: { step: "deploy" } }] };
}

/**
 * A deterministic agent with no model cost: the first turn calls `approve_step`, which suspends
 * for a reviewer's approval; once the tool result is in, the model answers. What the engine
 * does around it — park, claim, resume, store, publish — is all that is timed.
 */
export function createBenchAgent(): Pick<EngineOptions, "createClient" | "createToolkit"> & {
  marks: Map<string, ToolMarks>;
} {
  const marks = new Map<string, ToolMarks>();
  const createClient = () =>
    createClientFromDriver(
      createInProcessDriver({
        model: BENCH_MODEL,
        generate: (input) => benchModelReply(input.messages),
      }),
    );
  const createToolkit: EngineOptions["createToolkit"] = ({ runId }) =>
    createLibraryToolkit({
      builtins: false,
      extraTools: [
        defineTool({
          name: "approve_step",
          description: "Runs a step once a reviewer approves it.",
          run: (_args, ctx) => {
            const mark = marks.get(runId) ?? {};
            marks.set(runId, mark);
            if (!ctx?.answer) {
              mark.suspendedAt = performance.now();
              return pending({ kind: "approval", prompt: "Approve the deploy step?" });
            }
            mark.retriedAt = performance.now();
            return "deployed";
          },
        }),
      ],
    });
  return { createClient, createToolkit, marks };
}
