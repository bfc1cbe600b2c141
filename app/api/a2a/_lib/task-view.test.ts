import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import type { StoredRequest } from "@/lib/db/requests";
import type { RunTaskRows } from "@/lib/db/run-tasks";
import { taskOf } from "./task-view";

// How a run's rows read as a task: each run state, and what a parked run shows of its requests.

function request(kind: string, extra: Partial<StoredRequest["request"]> = {}): StoredRequest {
  return {
    id: `row-${kind}`,
    request: { id: `wire-${kind}`, kind, prompt: `Please ${kind}`, ...extra },
    runId: "run-1",
    toolCallId: "call-1",
    toolName: "tool",
    args: {},
    audience: "owner",
    status: "open",
    threadId: "thread-1",
    ownerId: "owner-1",
    audienceGroup: null,
    required: 1,
    createdAt: "2030-01-01T00:00:00.000Z",
    resolvedAt: null,
    answer: null,
  };
}

function rows(status: RunTaskRows["run"]["status"], more: Partial<RunTaskRows> = {}): RunTaskRows {
  return {
    run: { id: "run-1", threadId: "thread-1", contextId: "thread-1", userId: "owner-1", status, error: null },
    openRequests: [],
    finishedText: null,
    ...more,
  };
}

describe("taskOf", () => {
  it("follows the run: working, completed with the answer as an artifact, failed with the reason, canceled", () => {
    expect(taskOf(rows("running"))).toMatchObject({
      id: "run-1",
      contextId: "thread-1",
      status: { state: TaskState.TASK_STATE_WORKING },
    });
    const done = taskOf(rows("done", { finishedText: "All done." }));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts[0]?.parts[0]?.content).toEqual({ $case: "text", value: "All done." });
    const failed = taskOf(
      rows("failed", { run: { ...rows("failed").run, error: "The model is unreachable." } }),
    );
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.status?.message?.parts[0]?.content).toEqual({
      $case: "text",
      value: "The model is unreachable.",
    });
    expect(failed.artifacts).toEqual([]);
    expect(taskOf(rows("cancelled")).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("is input-required on an approval, with the prompt as text and the Request as a data part", () => {
    const schema = { type: "object", properties: { note: { type: "string" } } };
    const approval = request("approval", { data: { schema }, expiresAt: "2030-01-02T00:00:00.000Z" });
    const task = taskOf(rows("pending", { openRequests: [approval] }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(task.status?.message?.parts.map((part) => part.content)).toEqual([
      { $case: "text", value: "Please approval" },
      {
        $case: "data",
        value: {
          request: {
            id: "row-approval",
            kind: "approval",
            prompt: "Please approval",
            data: { schema },
            expiresAt: "2030-01-02T00:00:00.000Z",
            audience: "owner",
          },
        },
      },
    ]);
  });

  it("is auth-required on an OAuth sign-in, with its URL", () => {
    const signIn = request("authorization", { url: "https://bank.example/authorize?state=abc" });
    const task = taskOf(rows("pending", { openRequests: [request("approval"), signIn] }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_AUTH_REQUIRED);
    const [prompt, part] = task.status?.message?.parts ?? [];
    expect(prompt?.content).toEqual({
      $case: "text",
      value: "Please authorization\nSign in: https://bank.example/authorize?state=abc",
    });
    expect(part?.content).toMatchObject({
      $case: "data",
      value: { request: { url: "https://bank.example/authorize?state=abc" } },
    });
  });
});
