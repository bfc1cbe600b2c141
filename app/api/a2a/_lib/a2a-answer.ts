import "server-only";
import type { Message } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { SubmittedAnswer } from "@/lib/engine/engine-types";

// What an A2A message says: the text of a new task, or the answer to a parked one, read and
// checked here once so the handler only sees what it can act on.

export const MAX_TASK_TEXT = 4000;

export type MessageIntent =
  | { kind: "text"; text: string }
  | { kind: "answer"; requestId: string | null; answer: SubmittedAnswer };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function answerOf(value: Record<string, unknown>): MessageIntent {
  const { answer, requestId } = value;
  if (!isRecord(answer) || typeof answer.ok !== "boolean") {
    throw new RequestMalformedError(
      'An answer is a data part { "answer": { "ok": true | false, "data": { … } } }; "ok" must be a boolean.',
    );
  }
  if (answer.data !== undefined && !isRecord(answer.data)) {
    throw new RequestMalformedError('"answer.data" must be an object.');
  }
  if (requestId !== undefined && typeof requestId !== "string") {
    throw new RequestMalformedError('"requestId" must be the id of one of the task\'s open requests.');
  }
  return {
    kind: "answer",
    requestId: requestId ?? null,
    answer: {
      ok: answer.ok,
      ...(answer.data ? { data: answer.data as Record<string, unknown> } : {}),
      ...(answer.ok ? {} : { reason: "declined" as const }),
    },
  };
}

/** The message's answer data part if it has one, else its text. */
export function readMessageIntent(message: Message | undefined): MessageIntent {
  if (!message) throw new RequestMalformedError("The request has no message.");
  for (const part of message.parts) {
    if (part.content?.$case === "data" && isRecord(part.content.value) && "answer" in part.content.value) {
      return answerOf(part.content.value);
    }
  }
  const text = message.parts
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join("\n")
    .trim();
  if (!text) throw new RequestMalformedError("The message has no text: say what the agent should do.");
  if (text.length > MAX_TASK_TEXT) {
    throw new RequestMalformedError(
      `The message's text is ${text.length} characters; at most ${MAX_TASK_TEXT}.`,
    );
  }
  return { kind: "text", text };
}
