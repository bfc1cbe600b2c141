import type { InferUIMessageChunk } from "ai";
import type { ChatMessage, RequestCardData, ToolCardData } from "@/lib/domain/chat-message";
import type { RunState, ThreadEvent } from "@/lib/domain/events";
import {
  isSuperseded,
  type SupersededRange,
  supersededRangeOf,
  transcriptEventTypes,
} from "@/lib/domain/superseded-events";

export type ChatChunk = InferUIMessageChunk<ChatMessage>;

/** The assistant message id of a run; stable, so a replay replaces what a viewer already has. */
export function assistantMessageId(runId: string): string {
  return `run-${runId}`;
}

/**
 * Turns one run's thread events into UI message chunks, in order. Fed the run's events from
 * its first one, it always produces the same chunks: a live viewer, a reconnecting viewer and
 * the server-rendered history all see the same message. Events of other runs are ignored.
 */
export class RunChunkTranslator {
  readonly runId: string;
  private started = false;
  private openTextId: string | null = null;
  private finishedFlag = false;
  private lastError: string | undefined;
  private state: RunState = "running";
  private readonly tools = new Map<string, ToolCardData>();
  private readonly requests = new Map<string, RequestCardData>();
  private readonly superseded: SupersededRange[];
  /** Seqs of the transcript events already turned into chunks. */
  private readonly shown: number[] = [];
  private staleFlag = false;

  /**
   * `superseded` lists the run's `superseded` markers known up front (a replay reads them
   * first), so what they void is skipped even though the marker comes after it in the log.
   */
  constructor(runId: string, superseded: readonly SupersededRange[] = []) {
    this.runId = runId;
    this.superseded = [...superseded];
  }

  get finished(): boolean {
    return this.finishedFlag;
  }

  /**
   * A marker arrived for events this translator has already shown: chunks cannot take them
   * back, so the viewer must replay the run (a stream closes, and the client reattaches).
   */
  get stale(): boolean {
    return this.staleFlag;
  }

  push(event: ThreadEvent): ChatChunk[] {
    if (event.runId !== this.runId || this.finishedFlag) return [];
    const range = supersededRangeOf(event);
    if (range) {
      if (this.shown.some((seq) => seq > range.afterSeq && seq < range.seq)) this.staleFlag = true;
      this.superseded.push(range);
      return [];
    }
    if (isSuperseded(event, this.superseded)) return [];
    if (transcriptEventTypes.has(event.type)) this.shown.push(event.seq);
    const out: ChatChunk[] = [];
    if (!this.started) {
      this.started = true;
      out.push({ type: "start", messageId: assistantMessageId(this.runId) });
    }
    if (event.type !== "text") this.closeText(out);
    // The log marks a park with its `pending` event and a resume only by the activity that
    // follows, so the run card's state is derived here rather than read from run_status alone.
    if (
      this.state === "pending" &&
      (event.type === "text" || event.type === "tool_call" || event.type === "tool_result")
    ) {
      this.writeRun(out, "running");
    }

    switch (event.type) {
      case "text":
        if (event.delta.length === 0) break;
        if (this.openTextId === null) {
          this.openTextId = `text-${this.runId}-${event.seq}`;
          out.push({ type: "text-start", id: this.openTextId });
        }
        out.push({ type: "text-delta", id: this.openTextId, delta: event.delta });
        break;
      case "tool_call":
        this.writeTool(out, {
          toolCallId: event.toolCallId,
          name: event.name,
          args: event.args,
          state: "running",
        });
        break;
      case "tool_result": {
        const known = this.tools.get(event.toolCallId);
        // A suspended call's placeholder result arrives as an error; the pending event that
        // follows marks the card as waiting, and the retry's result replaces it.
        this.writeTool(out, {
          toolCallId: event.toolCallId,
          name: event.name,
          args: known?.args ?? {},
          state: event.isError ? "error" : "done",
          output: event.output,
        });
        break;
      }
      case "pending":
        for (const view of event.requests) {
          const card: RequestCardData = { view, createdAt: event.createdAt };
          this.requests.set(view.id, card);
          out.push({ type: "data-request", id: view.id, data: card });
          const tool = this.tools.get(view.toolCallId);
          this.writeTool(out, {
            toolCallId: view.toolCallId,
            name: tool?.name ?? view.toolName,
            args: tool?.args ?? view.args,
            state: "waiting",
          });
        }
        this.writeRun(out, "pending");
        break;
      case "request_resolved": {
        const card = this.requests.get(event.id);
        if (!card) break;
        const resolved: RequestCardData = {
          ...card,
          view: { ...card.view, status: event.status },
          resolution: {
            status: event.status,
            ok: event.ok,
            at: event.createdAt,
            ...(event.reason ? { reason: event.reason } : {}),
            ...(event.actorId ? { actorId: event.actorId } : {}),
            ...(event.forUserId ? { forUserId: event.forUserId } : {}),
          },
        };
        this.requests.set(event.id, resolved);
        out.push({ type: "data-request", id: event.id, data: resolved });
        break;
      }
      case "run_status":
        if (event.error) this.lastError = event.error;
        out.push({
          type: "data-run",
          id: this.runId,
          data: { runId: this.runId, status: event.status, ...(event.error ? { error: event.error } : {}) },
        });
        break;
      case "run_finished":
        if (event.status === "cancelled") this.cancelOpenTools(out);
        out.push({
          type: "data-run",
          id: this.runId,
          data: {
            runId: this.runId,
            status: event.status,
            ...(this.lastError ? { error: this.lastError } : {}),
          },
        });
        out.push({ type: "finish" });
        this.finishedFlag = true;
        break;
      case "user_message":
      case "usage":
      case "superseded":
        break;
    }
    return out;
  }

  private writeRun(out: ChatChunk[], status: RunState): void {
    this.state = status;
    out.push({
      type: "data-run",
      id: this.runId,
      data: { runId: this.runId, status, ...(this.lastError ? { error: this.lastError } : {}) },
    });
  }

  /** A cancel ends the run without a result for calls still under way; they never get one. */
  private cancelOpenTools(out: ChatChunk[]): void {
    for (const tool of this.tools.values()) {
      if (tool.state === "running" || tool.state === "waiting")
        this.writeTool(out, { ...tool, state: "cancelled" });
    }
  }

  private closeText(out: ChatChunk[]): void {
    if (this.openTextId === null) return;
    out.push({ type: "text-end", id: this.openTextId });
    this.openTextId = null;
  }

  private writeTool(out: ChatChunk[], card: ToolCardData): void {
    this.tools.set(card.toolCallId, card);
    out.push({ type: "data-tool", id: card.toolCallId, data: card });
  }
}
