import type { Checkpoint, Message, Request, SlotState, ToolCall } from "./types";

// The shape a checkpoint must have before `client.resume` believes a word of it, checked by hand
// instead of by a schema library: it runs on every resume, before the answered tool may run
// again, and a generic validator's dispatch cost about 0.1 ms there per resume in the app (ADR
// 0048). The rules are a schema's: strings, finite numbers, safe non-negative integers for
// `turns`, plain objects for arguments and data, and every known key copied out in a fixed
// order while unknown ones are dropped. `checkpoint-shape.test.ts` holds it to an equivalent
// declarative schema over valid checkpoints and thousands of broken ones.

/** Why a value is not a checkpoint: where (a dotted path, "(root)" at the top) and what. */
export class CheckpointShapeIssue extends Error {
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
  }
}

type Path = (string | number)[];
type Plain = Record<string, unknown>;

function fail(path: Path, problem: string): never {
  throw new CheckpointShapeIssue(path.join(".") || "(root)", problem);
}

function isObject(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An object made by `{}`, `JSON.parse` or `Object.create(null)`: no class instance, no Date. */
function isPlainObject(value: unknown): value is Plain {
  if (!isObject(value)) return false;
  const made = value.constructor;
  if (typeof made !== "function") return true;
  const prototype: unknown = made.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, "isPrototypeOf");
}

function field(path: Path, key: string): Path {
  path.push(key);
  return path;
}

function string(value: unknown, path: Path, key: string, nonEmpty = false): string {
  if (typeof value !== "string") fail(field(path, key), "expected a string");
  if (nonEmpty && value.length === 0) fail(field(path, key), "expected a non-empty string");
  return value;
}

function optionalString(from: Plain, path: Path, key: string, into: Plain): void {
  if (!(key in from)) return;
  const value = from[key];
  if (value !== undefined && typeof value !== "string") fail(field(path, key), "expected a string");
  into[key] = value;
}

function number(value: unknown, path: Path, key: string): number {
  if (typeof value !== "number" || !Number.isFinite(value))
    fail(field(path, key), "expected a finite number");
  return value;
}

function boolean(value: unknown, path: Path, key: string): boolean {
  if (typeof value !== "boolean") fail(field(path, key), "expected a boolean");
  return value;
}

function object(value: unknown, path: Path, key?: string | number): Plain {
  if (!isObject(value)) {
    if (key !== undefined) path.push(key);
    fail(path, "expected an object");
  }
  return value;
}

/** `read` on the object at `key`, with `key` on the path while it reads. */
function nested<T>(
  value: unknown,
  path: Path,
  key: string | number,
  read: (from: Plain, path: Path) => T,
): T {
  const from = object(value, path, key);
  path.push(key);
  const out = read(from, path);
  path.pop();
  return out;
}

/**
 * The array at `key`, each object in it read by `read`, holes included (`Array.prototype.map`
 * would skip a hole unchecked).
 */
function list<T>(value: unknown, path: Path, key: string, read: (from: Plain, path: Path) => T): T[] {
  if (!Array.isArray(value)) fail(field(path, key), "expected an array");
  path.push(key);
  const out: T[] = new Array(value.length);
  for (let i = 0; i < value.length; i += 1) out[i] = nested(value[i], path, i, read);
  path.pop();
  return out;
}

/** A record of string keys to anything (arguments, form data, metadata): a new object, values shared. */
function record(value: unknown, path: Path, key: string): Plain {
  if (!isPlainObject(value)) fail(field(path, key), "expected a plain object");
  const copy: Plain = {};
  for (const name of Reflect.ownKeys(value)) {
    if (name === "__proto__" || !Object.prototype.propertyIsEnumerable.call(value, name)) continue;
    if (typeof name !== "string") fail(field(path, key), "expected string keys only");
    copy[name] = value[name];
  }
  return copy;
}

function optionalRecord(from: Plain, path: Path, key: string, into: Plain): void {
  if (!(key in from)) return;
  const value = from[key];
  into[key] = value === undefined ? undefined : record(value, path, key);
}

// Each part's reader gets the part as an object, with its place already on the path.

function toolCall(from: Plain, path: Path): ToolCall {
  const call: Plain = {
    id: string(from.id, path, "id"),
    name: string(from.name, path, "name"),
    args: record(from.args, path, "args"),
  };
  optionalString(from, path, "invalidArgs", call);
  return call as unknown as ToolCall;
}

function message(from: Plain, path: Path): Message {
  const role = from.role;
  let out: Plain;
  if (role === "system" || role === "user") out = { role, content: string(from.content, path, "content") };
  else if (role === "assistant") {
    out = { role, content: string(from.content, path, "content") };
    if ("toolCalls" in from)
      out.toolCalls =
        from.toolCalls === undefined ? undefined : list(from.toolCalls, path, "toolCalls", toolCall);
  } else if (role === "tool") {
    out = {
      role,
      toolCallId: string(from.toolCallId, path, "toolCallId"),
      name: string(from.name, path, "name"),
      content: string(from.content, path, "content"),
      isError: boolean(from.isError, path, "isError"),
    };
  } else fail(field(path, "role"), 'expected "system", "user", "assistant" or "tool"');
  return out as unknown as Message;
}

/** A message checked and not copied: the caller keeps the object it parsed. */
function checkMessage(from: Plain, path: Path): null {
  message(from, path);
  return null;
}

function request(from: Plain, path: Path): Request {
  const out: Plain = {
    id: string(from.id, path, "id", true),
    kind: string(from.kind, path, "kind"),
    prompt: string(from.prompt, path, "prompt"),
  };
  optionalString(from, path, "url", out);
  optionalRecord(from, path, "data", out);
  optionalString(from, path, "expiresAt", out);
  return out as unknown as Request;
}

function toolResult(from: Plain, path: Path): Plain {
  const out: Plain = {
    output: string(from.output, path, "output"),
    isError: boolean(from.isError, path, "isError"),
  };
  optionalRecord(from, path, "metadata", out);
  return out;
}

function slotState(from: Plain, path: Path): SlotState {
  let out: Plain;
  if (from.status === "queued") out = { status: "queued" };
  else if (from.status === "done")
    out = { status: "done", result: nested(from.result, path, "result", toolResult) };
  else if (from.status === "suspended") {
    out = { status: "suspended", request: nested(from.request, path, "request", request) };
    if ("resumeOnDecline" in from) {
      if (from.resumeOnDecline !== undefined && from.resumeOnDecline !== true)
        fail(field(path, "resumeOnDecline"), "expected true");
      out.resumeOnDecline = from.resumeOnDecline;
    }
  } else fail(field(path, "status"), 'expected "queued", "done" or "suspended"');
  return out as unknown as SlotState;
}

function slot(from: Plain, path: Path): Checkpoint["slots"][number] {
  return {
    call: nested(from.call, path, "call", toolCall),
    state: nested(from.state, path, "state", slotState),
  };
}

function usage(from: Plain, path: Path): Checkpoint["usage"] {
  return {
    promptTokens: number(from.promptTokens, path, "promptTokens"),
    completionTokens: number(from.completionTokens, path, "completionTokens"),
    totalTokens: number(from.totalTokens, path, "totalTokens"),
  };
}

function recordedCall(from: Plain, path: Path): Checkpoint["toolCalls"][number] {
  const out: Plain = {
    id: string(from.id, path, "id"),
    name: string(from.name, path, "name"),
    args: record(from.args, path, "args"),
    output: string(from.output, path, "output"),
    isError: boolean(from.isError, path, "isError"),
  };
  optionalRecord(from, path, "metadata", out);
  return out as unknown as Checkpoint["toolCalls"][number];
}

/** What a checkpoint freezes of a run: everything but its version and digests. */
export type CheckpointBody = Omit<Checkpoint, "version" | "transcriptDigest" | "digest">;

/**
 * Checks that `value` has a checkpoint's shape and returns a new value holding only its known
 * keys (records' values shared with the input). `messages` is checked, and copied only when
 * `copyMessages` is set: a caller that parsed them itself keeps its own. Throws
 * `CheckpointShapeIssue` at the first problem.
 */
export function readCheckpointShape(value: unknown, { copyMessages }: { copyMessages: boolean }): Checkpoint {
  const from = object(value, []);
  if (from.version !== 2) fail(["version"], "expected 2");
  const body = readCheckpointBody(from, { copyMessages });
  const transcriptDigest = string(from.transcriptDigest, [], "transcriptDigest", true);
  return { version: 2, ...body, transcriptDigest, digest: string(from.digest, [], "digest") };
}

/** `readCheckpointShape` of a checkpoint's body alone: what an older form shares with this one. */
export function readCheckpointBody(
  value: unknown,
  { copyMessages }: { copyMessages: boolean },
): CheckpointBody {
  const path: Path = [];
  const from = object(value, path);
  const runId = string(from.runId, path, "runId", true);
  const model = string(from.model, path, "model");
  let messages: Message[] = [];
  if (copyMessages) messages = list(from.messages, path, "messages", message);
  else list(from.messages, path, "messages", checkMessage);
  const slots = list(from.slots, path, "slots", slot);
  const toolCalls = list(from.toolCalls, path, "toolCalls", recordedCall);
  const turns = from.turns;
  if (typeof turns !== "number" || !Number.isSafeInteger(turns) || turns < 0)
    fail(["turns"], "expected a non-negative integer");
  const usageRead = nested(from.usage, path, "usage", usage);
  return { runId, model, messages, slots, toolCalls, turns, usage: usageRead };
}

/** Checks messages a caller has in hand, keeping them as they are. */
export function checkTranscriptShape(messages: unknown): void {
  list(messages, [], "messages", checkMessage);
}
