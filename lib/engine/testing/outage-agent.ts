import {
  type Client,
  createClientFromDriver,
  createInProcessDriver,
  type InProcessPart,
  type ModelInput,
} from "toolnexus";
import type { DbClient } from "@/lib/db/db-types";

// A model for database outage tests: "stream …" streams `streamWords` words slowly and then calls
// `count` (so a run is mid-stream when the database goes away), "approve …" asks a reviewer
// through `approve`; after a tool's result it closes with "finished: <result>".

export const streamWords = Array.from({ length: 30 }, (_, i) => `w${i} `);

export function createOutageClient({ wordMs }: { wordMs: number }): () => Client {
  async function* slowly(): AsyncGenerator<InProcessPart> {
    for (const word of streamWords) {
      yield { type: "text", delta: word };
      await new Promise((resolve) => setTimeout(resolve, wordMs));
    }
    yield { type: "tool_call", name: "count", args: {} };
  }
  const generate = (input: ModelInput) => {
    const last = input.messages.at(-1);
    if (last?.role === "tool") return { text: `finished: ${last.content}` };
    const prompt = last?.role === "user" ? last.content : "";
    if (prompt.startsWith("approve")) return { toolCalls: [{ name: "approve", args: {} }] };
    return slowly();
  };
  return () => createClientFromDriver(createInProcessDriver({ model: "outage-test-model", generate }));
}

/** Polls until every run is done, incomplete or failed; returns their statuses by id. */
export async function waitForRunsToEnd(
  db: DbClient,
  runIds: string[],
  timeoutMs: number,
): Promise<Map<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await db.run.findMany({ where: { id: { in: runIds } }, select: { id: true, status: true } });
    const ended = runs.every((run) => ["done", "incomplete", "failed", "cancelled"].includes(run.status));
    if (ended || Date.now() > deadline) return new Map(runs.map((run) => [run.id, run.status]));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
