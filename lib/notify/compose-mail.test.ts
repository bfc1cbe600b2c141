import { describe, expect, it } from "vitest";
import { composeMail } from "./compose-mail";

// A mail an escalation step sent says why it came (ADR 0093); a request's first mail does not.

const request = (escalation: "reminder" | "escalated" | null) => ({
  id: "r1",
  kind: "approval",
  prompt: "Ship it?",
  toolName: "deploy",
  open: true,
  createdAt: new Date(0),
  origin: { via: "chat" as const, ownerName: "Alice" },
  escalation,
});

describe("the mail of an escalation step", () => {
  it("starts its subject and heading with why it came", () => {
    expect(composeMail([request(null)], "http://app.test").subject).toBe("Approval needed: “Ship it?”");
    const reminder = composeMail([request("reminder")], "http://app.test");
    expect(reminder.subject).toBe("Reminder: Approval needed: “Ship it?”");
    expect(reminder.text).toContain("Reminder: Approval needed · tool deploy");
    const escalated = composeMail([request("escalated")], "http://app.test");
    expect(escalated.subject).toBe("Escalated to you: Approval needed: “Ship it?”");
    expect(escalated.html).toContain("Escalated to you: Approval needed");
  });
});
