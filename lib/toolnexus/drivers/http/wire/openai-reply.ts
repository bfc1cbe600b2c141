// The everyday shape of an OpenAI chat completion, checked by hand. The zod schema in openai.ts
// stays the definition of what we accept and the source of the error a malformed reply gets;
// this check only lets the common reply skip it. Measured on the loop benchmark (two replies per
// run, two tool calls in the first), zod's parse, which rebuilds the reply object by object,
// cost about 125,000 instructions per run, about 1.6% of the run, for a reply that is fine
// nearly always.
//
// Sound by construction: everything accepted here is accepted by the schema too and reads the
// same, so skipping the schema changes no outcome. Anything else (arguments sent as an object,
// an odd field) goes to the schema, which decides.

/** The fields of a completion the wire format reads, as this check guarantees them. */
export interface PlainCompletion {
  choices: [PlainChoice, ...PlainChoice[]];
  usage?: PlainUsage | null;
}

interface PlainChoice {
  message: {
    content?: string | null;
    tool_calls?: Array<{ id?: string | null; function: { name: string; arguments?: string | null } }> | null;
  };
  finish_reason?: string | null;
}

interface PlainUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `undefined`, `null` or a value of the given `typeof`: what zod's `.nullish()` admits. */
function isNullish(value: unknown, type: "string" | "number"): boolean {
  return value === undefined || value === null || typeof value === type;
}

function isToolCall(value: unknown): boolean {
  if (!isRecord(value) || !isNullish(value.id, "string")) return false;
  const fn = value.function;
  return isRecord(fn) && typeof fn.name === "string" && isNullish(fn.arguments, "string");
}

function isChoice(value: unknown): boolean {
  if (!isRecord(value) || !isNullish(value.finish_reason, "string")) return false;
  const message = value.message;
  if (!isRecord(message) || !isNullish(message.content, "string")) return false;
  const calls = message.tool_calls;
  return calls === undefined || calls === null || (Array.isArray(calls) && calls.every(isToolCall));
}

function isUsage(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  return (
    isRecord(value) &&
    isNullish(value.prompt_tokens, "number") &&
    isNullish(value.completion_tokens, "number") &&
    isNullish(value.total_tokens, "number")
  );
}

/** Whether `json` is a completion of the everyday shape (see above); `false` means "ask the schema". */
export function isPlainCompletion(json: unknown): json is PlainCompletion {
  if (!isRecord(json) || !isUsage(json.usage)) return false;
  const choices = json.choices;
  return Array.isArray(choices) && choices.length > 0 && choices.every(isChoice);
}
