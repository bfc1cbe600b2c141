import { describe, expect, it } from "vitest";
import type { VoteTally } from "@/lib/domain/vote-tally";
import { atExpiry, whoMustAct } from "./who-acts";

describe("whoMustAct", () => {
  it("names who must act while the request is open", () => {
    expect(whoMustAct({ status: "open", audience: "reviewers" }, "owner")).toBe(
      "A reviewer must act: any reviewer may decide",
    );
    expect(whoMustAct({ status: "open", audience: "owner" }, "owner")).toBe("You must act");
    expect(whoMustAct({ status: "open", audience: "owner" }, "anyone")).toBe("The chat's owner must act");
  });

  it("names a group's address, and the members who may still approve once its tally is read", () => {
    const view = {
      status: "open" as const,
      audience: "group" as const,
      request: { data: { audienceGroup: "finance", required: 2 } },
    };
    expect(whoMustAct(view, "owner")).toBe("2 of finance must approve");
    const tally: VoteTally = {
      group: "finance",
      required: 2,
      approvals: [],
      declined: null,
      stillToVote: ["Rita", "Sam"],
      voided: [],
      late: [],
    };
    expect(whoMustAct(view, "anyone", tally)).toBe("2 of finance must approve — Rita, Sam may approve");
    expect(whoMustAct({ status: "open", audience: "group" }, "owner")).toBe("The approver group votes");
  });

  it("says nothing once the request is answered, declined, expired or cancelled", () => {
    // A decline is an answer with ok: false, so it has the answered status.
    for (const status of ["answered", "expired", "cancelled"] as const) {
      for (const audience of ["reviewers", "owner", "group"] as const) {
        expect(whoMustAct({ status, audience }, "owner")).toBeNull();
        expect(whoMustAct({ status, audience }, "anyone")).toBeNull();
      }
    }
  });

  it("says what an expiry does, by the request's form", () => {
    expect(atExpiry("approval")).toMatch(/nothing runs/);
    expect(atExpiry("question")).toMatch(/without an answer/);
  });
});
