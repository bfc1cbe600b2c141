import { Command, type PeerDurability, type PeerGraph, type PeerMarks } from "./langgraph-peer";
import type { CycleTimings } from "./park-resume-cycle";

/**
 * One LangGraph cycle with the fairness rules of the comparison: the run starts on one graph
 * instance and parks at `interrupt()`; the answer resumes it with `new Command({ resume })` on
 * a fresh graph instance over a second connection, as another request (or process) would.
 * Throws unless it parked on the approval and ended with the model's answer.
 */
export async function runPeerCycle({
  createGraph,
  marks,
  threadId,
  durability,
}: {
  /** A new graph instance on the first (0) or second (1) connection. */
  createGraph: (connection: 0 | 1) => PeerGraph;
  marks: Map<string, PeerMarks>;
  threadId: string;
  durability: PeerDurability;
}): Promise<CycleTimings> {
  const config = { configurable: { thread_id: threadId }, durability };
  const startedAt = performance.now();
  const parked = await createGraph(0).invoke(
    { messages: [{ role: "user", content: "deploy please" }] },
    config,
  );
  const parkedAt = performance.now();
  const interrupts = (parked as { __interrupt__?: { value: { kind?: string } }[] }).__interrupt__;
  if (interrupts?.length !== 1 || interrupts[0]!.value.kind !== "approval")
    throw new Error(`thread ${threadId} did not park on one approval: ${JSON.stringify(interrupts)}`);
  const answerSentAt = performance.now();
  const finished = await createGraph(1).invoke(new Command({ resume: { ok: true } }), config);
  const finishedAt = performance.now();
  const last = finished.messages.at(-1);
  if (last?.role !== "assistant" || last.content !== "Step approved and done.")
    throw new Error(`thread ${threadId} ended ${JSON.stringify(last)}`);
  const mark = marks.get(threadId);
  marks.delete(threadId);
  if (mark?.suspendedAt === undefined || mark.retriedAt === undefined)
    throw new Error(`thread ${threadId}: the tool was not suspended and retried`);
  return {
    startedAt,
    suspendedAt: mark.suspendedAt,
    pendingDeliveredAt: parkedAt,
    answerSentAt,
    // The peer's resume call returns only when the run has finished.
    answerReturnedAt: finishedAt,
    retriedAt: mark.retriedAt,
    finishedAt,
  };
}
