import type { Message, Request, StreamEvent, ToolCall, ToolCallRecord, ToolResult, ToolSlot } from "./types";

export function toolResultEvent(call: ToolCall, result: ToolResult): StreamEvent {
  return {
    type: "tool_result",
    id: call.id,
    name: call.name,
    output: result.output,
    isError: result.isError,
  };
}

export function toolMessage(call: ToolCall, result: ToolResult): Message {
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: result.output,
    isError: result.isError,
  };
}

export function toolCallRecord(call: ToolCall, result: ToolResult): ToolCallRecord {
  const record: ToolCallRecord = {
    id: call.id,
    name: call.name,
    args: call.args,
    output: result.output,
    isError: result.isError,
  };
  if (result.metadata !== undefined) record.metadata = result.metadata;
  return record;
}

export function queuedSlots(calls: ToolCall[]): ToolSlot[] {
  return calls.map((call) => ({ call, state: { status: "queued" } }));
}

export function suspendedRequests(slots: ToolSlot[]): Request[] {
  const requests: Request[] = [];
  for (const slot of slots) if (slot.state.status === "suspended") requests.push(slot.state.request);
  return requests;
}

/**
 * What a halted turn shows in the transcript: results up to the first suspension, then that
 * call's placeholder. Later calls stay out of it (they are still in the checkpoint's slots).
 */
export function haltedView(slots: ToolSlot[]): { messages: Message[]; records: ToolCallRecord[] } {
  const messages: Message[] = [];
  const records: ToolCallRecord[] = [];
  for (const slot of slots) {
    const { call, state } = slot;
    if (state.status === "done") {
      messages.push(toolMessage(call, state.result));
      records.push(toolCallRecord(call, state.result));
      continue;
    }
    if (state.status === "suspended") {
      const placeholder: ToolResult = {
        output: state.request.prompt,
        isError: true,
        metadata: { pending: state.request },
      };
      messages.push(toolMessage(call, placeholder));
      records.push(toolCallRecord(call, placeholder));
    }
    break;
  }
  return { messages, records };
}
