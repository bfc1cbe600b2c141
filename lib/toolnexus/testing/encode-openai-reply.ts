import {
  argumentText,
  type EncodeContext,
  type EncodedReply,
  pieces,
  type StubTurnReply,
  usageFor,
} from "./stub-reply";

/** A turn as the OpenAI chat-completions API would send it, as JSON or as its SSE stream. */
export function encodeOpenAiReply(reply: StubTurnReply, context: EncodeContext): EncodedReply {
  const { request, nextId } = context;
  const id = nextId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const model = String(request.body.model ?? "stub");
  const calls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? nextId("call_"),
    name: call.name,
    args: argumentText(call),
  }));
  const finishReason = reply.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop");
  const usage = usageFor(reply, request);
  const wireUsage = usage && {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  };

  if (request.body.stream !== true) {
    const message: Record<string, unknown> = { role: "assistant", content: reply.text ?? null };
    if (calls.length > 0) {
      message.tool_calls = calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.args },
      }));
    }
    const body: Record<string, unknown> = {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message, finish_reason: finishReason }],
    };
    if (wireUsage) body.usage = wireUsage;
    return { kind: "json", body };
  }

  const options = request.body.stream_options as { include_usage?: boolean } | undefined;
  const includeUsage = options?.include_usage === true;
  const events: string[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => {
    const payload: Record<string, unknown> = {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
    if (includeUsage) payload.usage = null;
    events.push(`data: ${JSON.stringify(payload)}\n\n`);
  };

  chunk({ role: "assistant", content: "" });
  for (const piece of pieces(reply.text ?? "", 8, 2)) chunk({ content: piece });
  calls.forEach((call, index) => {
    chunk({
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
    });
    for (const piece of pieces(call.args, 16, 3)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  chunk({}, finishReason);
  if (includeUsage && wireUsage) {
    events.push(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: wireUsage })}\n\n`,
    );
  }
  events.push("data: [DONE]\n\n");
  return { kind: "sse", events };
}
