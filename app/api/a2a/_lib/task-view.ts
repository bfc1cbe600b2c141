import "server-only";
import { type Message, type Part, Role, type Task, TaskState, taskStateToJSON } from "@a2a-js/sdk";
import type { StoredRequest } from "@/lib/db/requests";
import type { RunTaskRows } from "@/lib/db/run-tasks";
import { requestKindSpec } from "@/lib/domain/request-kinds";

// A run as an A2A task (ADR 0084): the task's id is the run's, its context the chat's, and its
// state read from the run's row and its open requests each time it is asked for.

export function textPart(value: string): Part {
  return { content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

export function dataPart(value: Record<string, unknown>): Part {
  return {
    content: { $case: "data", value },
    metadata: undefined,
    filename: "",
    mediaType: "application/json",
  };
}

function agentMessage(rows: RunTaskRows, parts: Part[]): Message {
  return {
    messageId: `${rows.run.id}:${rows.run.status}:${rows.openRequests.map((request) => request.id).join(",")}`,
    contextId: rows.run.contextId,
    taskId: rows.run.id,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The Request a parked run waits on, as the client may read and answer it. */
export function requestPart(request: StoredRequest): Part {
  const { kind, prompt, url, data, expiresAt } = request.request;
  return dataPart({
    request: {
      id: request.id,
      kind,
      prompt,
      ...(url ? { url } : {}),
      ...(data ? { data } : {}),
      ...(expiresAt ? { expiresAt } : {}),
      audience: request.audience,
    },
  });
}

function isSignIn(request: StoredRequest): boolean {
  return requestKindSpec(request.request.kind).form === "sign-in";
}

type TaskStatusView = { state: TaskState; parts: Part[] };

function statusOf(rows: RunTaskRows): TaskStatusView {
  const { run, openRequests } = rows;
  switch (run.status) {
    case "running":
      return { state: TaskState.TASK_STATE_WORKING, parts: [] };
    case "pending": {
      // A run may park on several requests at once; each is a data part, the first one's prompt the text.
      const signIn = openRequests.find(isSignIn);
      const shown = signIn ? [signIn] : openRequests;
      const text = signIn
        ? `${signIn.request.prompt}${signIn.request.url ? `\nSign in: ${signIn.request.url}` : ""}`
        : (shown[0]?.request.prompt ?? "The run waits for an answer.");
      return {
        state: signIn ? TaskState.TASK_STATE_AUTH_REQUIRED : TaskState.TASK_STATE_INPUT_REQUIRED,
        parts: [textPart(text), ...shown.map(requestPart)],
      };
    }
    case "done":
      return { state: TaskState.TASK_STATE_COMPLETED, parts: [] };
    case "cancelled":
      return { state: TaskState.TASK_STATE_CANCELED, parts: [] };
    case "failed":
    case "incomplete":
      return {
        state: TaskState.TASK_STATE_FAILED,
        parts: [textPart(run.error ?? rows.finishedText ?? "The run did not finish.")],
      };
  }
}

/** A state as people write it: "input-required", "completed". */
export function stateName(state: TaskState): string {
  return taskStateToJSON(state)
    .replace(/^TASK_STATE_/, "")
    .toLowerCase()
    .replaceAll("_", "-");
}

export function isFinalState(state: TaskState): boolean {
  return (
    state === TaskState.TASK_STATE_COMPLETED ||
    state === TaskState.TASK_STATE_FAILED ||
    state === TaskState.TASK_STATE_CANCELED ||
    state === TaskState.TASK_STATE_REJECTED
  );
}

/** Where a stream of the task stops: the run ended, or it waits for someone. */
export function isStreamEnd(state: TaskState): boolean {
  return (
    isFinalState(state) ||
    state === TaskState.TASK_STATE_INPUT_REQUIRED ||
    state === TaskState.TASK_STATE_AUTH_REQUIRED
  );
}

export function taskOf(rows: RunTaskRows): Task {
  const status = statusOf(rows);
  const answer = rows.run.status === "done" ? rows.finishedText : null;
  return {
    id: rows.run.id,
    contextId: rows.run.contextId,
    status: {
      state: status.state,
      message: status.parts.length > 0 ? agentMessage(rows, status.parts) : undefined,
      timestamp: new Date().toISOString(),
    },
    artifacts:
      answer === null
        ? []
        : [
            {
              artifactId: `${rows.run.id}:answer`,
              name: "answer",
              description: "The agent's answer",
              parts: [textPart(answer)],
              metadata: undefined,
              extensions: [],
            },
          ],
    history: [],
    metadata: undefined,
  };
}
