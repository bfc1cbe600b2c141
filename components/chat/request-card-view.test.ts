import { describe, expect, it } from "vitest";
import type { RequestCardData } from "@/lib/domain/chat-message";
import { requestCardView } from "./request-card-view";

const card: RequestCardData = {
  createdAt: "2026-01-01T12:00:00.000Z",
  view: {
    id: "req-1",
    request: { id: "pnd-1", kind: "approval", prompt: "Deploy?" },
    runId: "r1",
    toolCallId: "c1",
    toolName: "deploy",
    args: { version: "1.0" },
    audience: "reviewers",
    status: "open",
  },
};

describe("requestCardView", () => {
  it("keeps an unresolved card open", () => {
    expect(requestCardView(card, "u1")).toMatchObject({
      status: "open",
      toolName: "deploy",
      audience: "reviewers",
    });
  });

  it("names the viewer as 'you' and anyone else as a reviewer", () => {
    const at = "2026-01-01T12:05:00.000Z";
    const mine = requestCardView(
      { ...card, resolution: { status: "answered", ok: true, actorId: "u1", at } },
      "u1",
    );
    expect(mine).toMatchObject({
      status: "answered",
      answer: { ok: true, answeredBy: "you", answeredAt: at },
    });
    const theirs = requestCardView(
      { ...card, resolution: { status: "answered", ok: false, reason: "declined", actorId: "u9", at } },
      "u1",
    );
    expect(theirs).toMatchObject({ answer: { ok: false, reason: "declined", answeredBy: "a reviewer" } });
  });

  it("names the one who answered in the viewer's place while they were away", () => {
    const at = "2026-01-01T12:05:00.000Z";
    const covered = requestCardView(
      { ...card, resolution: { status: "answered", ok: true, actorId: "u9", forUserId: "u1", at } },
      "u1",
    );
    expect(covered).toMatchObject({ answer: { answeredBy: "the person covering for you" } });
  });

  it("names someone else who cancelled the run an admin", () => {
    const at = "2026-01-01T12:05:00.000Z";
    const cancelled = (actorId: string) =>
      requestCardView(
        { ...card, resolution: { status: "cancelled", ok: false, reason: "cancelled", actorId, at } },
        "u1",
      );
    expect(cancelled("u7")).toMatchObject({ status: "cancelled", answer: { answeredBy: "an admin" } });
    expect(cancelled("u1")).toMatchObject({ status: "cancelled", answer: { answeredBy: "you" } });
  });

  it("leaves the answerer out when the system resolved the request", () => {
    const view = requestCardView(
      { ...card, resolution: { status: "expired", ok: false, reason: "expired", at: card.createdAt } },
      "u1",
    );
    expect(view).toMatchObject({ status: "expired", answer: { ok: false, reason: "expired" } });
    expect(view).not.toHaveProperty(["answer", "answeredBy"]);
  });
});
