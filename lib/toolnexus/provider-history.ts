import { isPlainObject, toolArguments } from "./drivers/http/wire/tool-arguments";
import { ToolnexusError } from "./errors";
import type { Message, ProviderMessage, ToolCall, ToolSpec } from "./types";

// What callers hand back to the loop (`history`, a `beforeLLM` rewrite) may be this library's
// transcript or the provider messages a `RunResult.messages` holds: the reference port's callers
// pass the latter. Each message is read on its own, so the two may even be mixed.

type Raw = Record<string, unknown>;

function invalid(at: string, why: string): ToolnexusError {
  return new ToolnexusError("config:invalid", `${at}: ${why}`);
}

/** Text of a string, or of an array of `{ type: "text", text }` parts (both providers allow it). */
function textOf(content: unknown, at: string): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (Array.isArray(content)) {
    return content
      .map((part, i) => {
        if (isPlainObject(part) && part.type === "text" && typeof part.text === "string") return part.text;
        throw invalid(`${at}[${i}]`, "only text parts are understood here");
      })
      .join("");
  }
  throw invalid(at, "content must be a string or an array of text parts");
}

class Reader {
  readonly out: Message[] = [];
  private readonly names = new Map<string, string>();

  constructor(private readonly systemPrompt: string | undefined) {}

  private call(call: ToolCall): ToolCall {
    this.names.set(call.id, call.name);
    return call;
  }

  private toolResult(id: unknown, content: unknown, isError: boolean, at: string): void {
    if (typeof id !== "string") throw invalid(at, "a tool result needs the id of its call");
    const name = this.names.get(id);
    if (name === undefined)
      throw invalid(at, `a tool result for call "${id}", which no assistant message made`);
    this.out.push({ role: "tool", toolCallId: id, name, content: textOf(content, `${at}.content`), isError });
  }

  private openAiCall(raw: unknown, at: string): ToolCall {
    const fn = isPlainObject(raw) ? raw.function : undefined;
    if (
      !isPlainObject(raw) ||
      typeof raw.id !== "string" ||
      !isPlainObject(fn) ||
      typeof fn.name !== "string"
    )
      throw invalid(at, "a tool call needs an id and a function name");
    const text = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {});
    return this.call({ id: raw.id, name: fn.name, ...toolArguments(text) });
  }

  private blocks(role: "user" | "assistant", blocks: unknown[], at: string): void {
    let text = "";
    const calls: ToolCall[] = [];
    blocks.forEach((block, i) => {
      const where = `${at}.content[${i}]`;
      if (!isPlainObject(block)) throw invalid(where, "a content block must be an object");
      if (block.type === "text" && typeof block.text === "string") text += block.text;
      else if (role === "assistant" && block.type === "tool_use") {
        if (typeof block.id !== "string" || typeof block.name !== "string")
          throw invalid(where, "a tool_use block needs an id and a name");
        const args = isPlainObject(block.input) ? block.input : {};
        calls.push(this.call({ id: block.id, name: block.name, args }));
      } else if (role === "user" && block.type === "tool_result")
        this.toolResult(block.tool_use_id, block.content, block.is_error === true, where);
      else throw invalid(where, `a "${String(block.type)}" block is not understood here`);
    });
    if (role === "assistant") {
      const message: Message = { role: "assistant", content: text };
      if (calls.length > 0) message.toolCalls = calls;
      this.out.push(message);
    } else if (text !== "") this.out.push({ role: "user", content: text });
  }

  read(raw: unknown, at: string): void {
    if (!isPlainObject(raw)) throw invalid(at, "a message must be an object");
    const m = raw as Raw;
    switch (m.role) {
      case "system": {
        const content = textOf(m.content, `${at}.content`);
        // The loop sends its system prompt itself; an OpenAI transcript carries it too.
        if (content !== this.systemPrompt) this.out.push({ role: "system", content });
        break;
      }
      case "user":
        if (Array.isArray(m.content)) this.blocks("user", m.content, at);
        else this.out.push({ role: "user", content: textOf(m.content, `${at}.content`) });
        break;
      case "assistant":
        if (Array.isArray(m.content) && m.content.some((b) => isPlainObject(b) && b.type === "tool_use"))
          this.blocks("assistant", m.content, at);
        else this.assistant(m, at);
        break;
      case "tool":
        // This library's own shape is kept as it is, as history always was.
        if (typeof m.toolCallId === "string") this.out.push(m as Message);
        else this.toolResult(m.tool_call_id, m.content, false, at);
        break;
      default:
        throw invalid(at, `unknown role ${JSON.stringify(m.role)}`);
    }
  }

  private assistant(m: Raw, at: string): void {
    const message: Message = { role: "assistant", content: textOf(m.content, `${at}.content`) };
    let calls: ToolCall[] = [];
    if (Array.isArray(m.tool_calls))
      calls = m.tool_calls.map((c, i) => this.openAiCall(c, `${at}.tool_calls[${i}]`));
    else if (Array.isArray(m.toolCalls)) calls = (m.toolCalls as ToolCall[]).map((c) => this.call({ ...c }));
    if (calls.length > 0) message.toolCalls = calls;
    this.out.push(message);
  }
}

/**
 * This library's transcript from messages in its own shape, OpenAI's or Anthropic's. A system
 * message equal to `systemPrompt` is dropped: the loop sends that prompt on every call already.
 * Throws `config:invalid` naming the first message it cannot read.
 */
export function toTranscript(
  messages: ReadonlyArray<Message | ProviderMessage>,
  systemPrompt: string | undefined,
  label = "history",
): Message[] {
  const reader = new Reader(systemPrompt);
  for (const [i, message] of messages.entries()) reader.read(message, `${label}[${i}]`);
  return reader.out;
}

/** Tool declarations in this library's shape from its own, OpenAI's or Anthropic's. */
export function toToolSpecs(tools: readonly unknown[]): ToolSpec[] {
  return tools.map((tool, i) => {
    const at = `beforeLLM tools[${i}]`;
    if (!isPlainObject(tool)) throw invalid(at, "a tool must be an object");
    const declared = isPlainObject(tool.function) ? tool.function : tool;
    const schema = declared.parameters ?? declared.input_schema ?? declared.inputSchema;
    if (typeof declared.name !== "string" || !isPlainObject(schema))
      throw invalid(at, "a tool needs a name and a JSON schema");
    const description = typeof declared.description === "string" ? declared.description : "";
    return { name: declared.name, description, inputSchema: schema };
  });
}
