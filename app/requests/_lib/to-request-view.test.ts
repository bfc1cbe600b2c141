import { describe, expect, it } from "vitest";
import type { StoredRequest } from "@/lib/db/requests";
import { toRequestView } from "./to-request-view";

const stored: StoredRequest = {
  id: "row-1",
  request: { id: "pnd-1", kind: "approval", prompt: "Deploy?", expiresAt: "2030-01-02T00:00:00.000Z" },
  runId: "run-1",
  toolCallId: "call-1",
  toolName: "deploy",
  args: { version: "v1" },
  audience: "reviewers",
  status: "open",
  threadId: "t-1",
  ownerId: "u-1",
  audienceGroup: null,
  required: 1,
  createdAt: "2030-01-01T00:00:00.000Z",
  resolvedAt: null,
  answer: null,
};

describe("toRequestView", () => {
  it("keeps an open request open", () => {
    expect(toRequestView(stored)).toEqual({
      status: "open",
      request: stored.request,
      audience: "reviewers",
      toolName: "deploy",
      args: { version: "v1" },
      createdAt: stored.createdAt,
    });
  });

  it("carries the answer, its data and the answerer's name", () => {
    const view = toRequestView(
      {
        ...stored,
        status: "answered",
        resolvedAt: "2030-01-01T01:00:00.000Z",
        answer: {
          actorId: "u-9",
          ok: false,
          reason: "declined",
          data: { reason: "freeze" },
          createdAt: "2030-01-01T01:00:00.000Z",
        },
      },
      "Rita",
    );
    expect(view).toMatchObject({
      status: "answered",
      answer: {
        ok: false,
        reason: "declined",
        data: { reason: "freeze" },
        answeredBy: "Rita",
        answeredAt: "2030-01-01T01:00:00.000Z",
      },
    });
  });

  it("says when the run was stopped before the answered call ran", () => {
    const answered = {
      ...stored,
      status: "answered" as const,
      answer: { actorId: "u-9", ok: true, createdAt: "2030-01-01T01:00:00.000Z" },
    };
    expect(toRequestView({ ...answered, runStoppedFirst: true })).toMatchObject({
      answer: { ok: true, runStoppedFirst: true },
    });
    expect(toRequestView({ ...answered, runStoppedFirst: false })).not.toHaveProperty([
      "answer",
      "runStoppedFirst",
    ]);
  });

  it("falls back to the resolution time when the system closed the request", () => {
    const view = toRequestView({ ...stored, status: "expired", resolvedAt: "2030-01-02T00:00:01.000Z" });
    expect(view).toMatchObject({
      status: "expired",
      answer: { ok: false, answeredAt: "2030-01-02T00:00:01.000Z" },
    });
    expect(view).not.toHaveProperty(["answer", "answeredBy"]);
  });
});
