import {
  argumentText,
  type EncodeContext,
  type EncodedReply,
  pieces,
  type StubTurnReply,
  usageFor,
} from "./stub-reply";

/** A turn as the Anthropic Messages API would send it, as JSON or as its SSE stream. */
export function encodeAnthropicReply(reply: StubTurnReply, context: EncodeContext): EncodedReply {
  const { request, nextId } = context;
  const id = nextId("msg_");
  const model = String(request.body.model ?? "stub");
  const calls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? nextId("toolu_"),
    name: call.name,
    text: argumentText(call),
  }));
  const stopReason = reply.finishReason ?? (calls.length > 0 ? "tool_use" : "end_turn");
  const usage = usageFor(reply, request);

  if (request.body.stream !== true) {
    const content: Array<Record<string, unknown>> = [];
    if (reply.text) content.push({ type: "text", text: reply.text });
    for (const call of calls)
      content.push({ type: "tool_use", id: call.id, name: call.name, input: decoded(call.text) });
    const body: Record<string, unknown> = {
      id,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
    };
    if (usage) body.usage = { input_tokens: usage.promptTokens, output_tokens: usage.completionTokens };
    return { kind: "json", body };
  }

  const events: string[] = [];
  const emit = (type: string, payload: Record<string, unknown>) =>
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`);

  emit("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage ? { input_tokens: usage.promptTokens, output_tokens: 1 } : undefined,
    },
  });
  emit("ping", {});
  let index = 0;
  if (reply.text) {
    emit("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of pieces(reply.text, 8, 2)) {
      emit("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    }
    emit("content_block_stop", { index });
    index++;
  }
  for (const call of calls) {
    emit("content_block_start", {
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    for (const piece of pieces(call.text, 16, 3)) {
      emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    emit("content_block_stop", { index });
    index++;
  }
  emit("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: usage ? { output_tokens: usage.completionTokens } : undefined,
  });
  emit("message_stop", {});
  return { kind: "sse", events };
}

/** The JSON API carries `input` as an object; text that is not JSON is passed on as a string. */
function decoded(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
