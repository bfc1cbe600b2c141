import type { ChatMessage, RunCardData } from "@/lib/domain/chat-message";
import type { RunState } from "@/lib/domain/events";

/** The run behind the conversation's last reply, if the last message is a reply with a run. */
export function lastRun(messages: ChatMessage[]): RunCardData | undefined {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return undefined;
  const run = last.parts.findLast((part) => part.type === "data-run");
  return run?.type === "data-run" ? run.data : undefined;
}

/** Running or parked: the run has not ended, and its stream is worth following. */
export function isLiveRun(status: RunState | undefined): boolean {
  return status === "running" || status === "pending";
}
