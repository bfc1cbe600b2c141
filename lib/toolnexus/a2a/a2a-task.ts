import { type Message, type Part, Role, type SendMessageRequest, type Task, TaskState } from "@a2a-js/sdk";
import type { Answer, DeclineReason, Request } from "../types";

// What a remote A2A task means for the Request that was sent as it: the messages that go out
// and the reading of a task's state. No network here; a2a-wait-for.ts does the talking.

/** Where a remote task stands, read from the asking side. */
export type TaskOutcome =
  | { status: "working" }
  | { status: "answered"; answer: Answer }
  /** The peer asks something itself (`input-required`, or `auth-required` with its sign-in). */
  | { status: "asking"; state: "input-required" | "auth-required"; question: Request };

function textPart(value: string): Part {
  return { content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

function dataPart(value: Record<string, unknown>): Part {
  return {
    content: { $case: "data", value },
    metadata: undefined,
    filename: "",
    mediaType: "application/json",
  };
}

/** The wire Request with its optionals omitted when absent, as the contract spells it. */
function wireRequest(request: Request): Record<string, unknown> {
  const { id, kind, prompt, url, data, expiresAt } = request;
  return {
    id,
    kind,
    prompt,
    ...(url !== undefined ? { url } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}

function userMessage(parts: Part[], ids: { messageId: string; contextId: string; taskId?: string }): Message {
  return {
    messageId: ids.messageId,
    contextId: ids.contextId,
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function sendRequest(message: Message, returnImmediately: boolean): SendMessageRequest {
  return {
    tenant: "",
    message,
    configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
    metadata: undefined,
  };
}

/**
 * The message that starts the remote task: the prompt as text (what a person or a model on the
 * other side reads) and the Request as data (what a program there reads). Its `contextId` and
 * `messageId` are the request's key, so the task can be found again after a restart.
 */
export function taskMessage(request: Request, key: string, returnImmediately: boolean): SendMessageRequest {
  const message = userMessage([textPart(request.prompt), dataPart(wireRequest(request))], {
    messageId: key,
    contextId: key,
  });
  return sendRequest(message, returnImmediately);
}

/** The reply to a peer's own question, in the `{ answer: { ok, data?, reason? } }` form. */
export function answerMessage(task: Task, answer: Answer): SendMessageRequest {
  const { ok, data, reason } = answer;
  const body = { ok, ...(data !== undefined ? { data } : {}), ...(reason !== undefined ? { reason } : {}) };
  const message = userMessage([dataPart({ answer: body })], {
    messageId: crypto.randomUUID(),
    contextId: task.contextId,
    taskId: task.id,
  });
  return sendRequest(message, true);
}

function texts(parts: Part[]): string {
  return parts
    .flatMap((part) => (part.content?.$case === "text" ? [part.content.value] : []))
    .join("\n")
    .trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstData(parts: Part[]): unknown {
  return parts.find((part) => part.content?.$case === "data")?.content?.value;
}

/** `completed`: the artifacts' data part when there is one, else their text (or the status message's). */
function resultData(task: Task): Record<string, unknown> {
  const parts = task.artifacts.flatMap((artifact) => artifact.parts);
  const data = firstData(parts);
  if (data !== undefined) return isRecord(data) ? data : { value: data };
  return { text: texts(parts.length > 0 ? parts : (task.status?.message?.parts ?? [])) };
}

const ENDED: Partial<Record<TaskState, { name: string; reason: DeclineReason }>> = {
  [TaskState.TASK_STATE_REJECTED]: { name: "rejected", reason: "declined" },
  [TaskState.TASK_STATE_FAILED]: { name: "failed", reason: "declined" },
  [TaskState.TASK_STATE_CANCELED]: { name: "canceled", reason: "cancelled" },
};

/**
 * A negative Answer. The contract's `reason` is one of three words, so what the peer said goes in
 * `data` (`state`, `message`), where a host's `formatDecline` can show it.
 */
export function declined(request: Request, reason: DeclineReason, state: string, message?: string): Answer {
  return { id: request.id, ok: false, reason, data: { state, ...(message ? { message } : {}) } };
}

/** The peer's question as a Request: its own when its data part is one, else built from its text. */
function questionOf(task: Task, auth: boolean): Request {
  const message = task.status?.message;
  const parts = message?.parts ?? [];
  const data = firstData(parts);
  const text = texts(parts);
  const own = isRecord(data) && typeof data.prompt === "string" ? data : undefined;
  const url =
    typeof own?.url === "string" ? own.url : parts.find((p) => p.content?.$case === "url")?.content?.value;
  const question: Request = {
    // Stable for the same question of the same task, so an inbox the host asks sees one request.
    id: `a2a-${task.id}-${typeof own?.id === "string" ? own.id : message?.messageId || "question"}`,
    kind: typeof own?.kind === "string" ? own.kind : auth ? "authorization" : "question",
    prompt:
      (own?.prompt as string | undefined) ||
      text ||
      (auth ? "The agent asks for a sign-in." : "The agent asks for input."),
  };
  if (typeof url === "string") question.url = url;
  if (isRecord(own?.data)) question.data = own.data;
  if (typeof own?.expiresAt === "string") question.expiresAt = own.expiresAt;
  return question;
}

export function outcomeOf(request: Request, task: Task): TaskOutcome {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  if (state === TaskState.TASK_STATE_COMPLETED) {
    return { status: "answered", answer: { id: request.id, ok: true, data: resultData(task) } };
  }
  const ended = ENDED[state];
  if (ended) {
    const said = texts(task.status?.message?.parts ?? []);
    return { status: "answered", answer: declined(request, ended.reason, ended.name, said) };
  }
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED || state === TaskState.TASK_STATE_AUTH_REQUIRED) {
    const auth = state === TaskState.TASK_STATE_AUTH_REQUIRED;
    return {
      status: "asking",
      state: auth ? "auth-required" : "input-required",
      question: questionOf(task, auth),
    };
  }
  return { status: "working" };
}

/** A peer that replied with a bare message instead of a task has answered: read it like an artifact. */
export function messageAnswer(request: Request, message: Message): Answer {
  const data = firstData(message.parts);
  if (data !== undefined) return { id: request.id, ok: true, data: isRecord(data) ? data : { value: data } };
  return { id: request.id, ok: true, data: { text: texts(message.parts) } };
}
