import type { EventBody, ParkedRequestView, ThreadEvent } from "@/lib/domain/events";

/** Builds a thread's event log the way the engine numbers it: seq 1, 2, 3 … per thread. */
export function eventLog(threadId: string, bodies: Array<EventBody & { runId: string }>): ThreadEvent[] {
  return bodies.map((body, index) => ({
    ...body,
    threadId,
    seq: index + 1,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, index)).toISOString(),
  }));
}

export function parkedApproval(runId: string, overrides: Partial<ParkedRequestView> = {}): ParkedRequestView {
  return {
    id: "req-1",
    request: { id: "pnd-1", kind: "approval", prompt: "Deploy 1.4.2 to production?" },
    runId,
    toolCallId: "call-1",
    toolName: "deploy",
    args: { env: "production", version: "1.4.2" },
    audience: "reviewers",
    status: "open",
    ...overrides,
  };
}
