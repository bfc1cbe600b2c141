import { describe, expect, it } from "vitest";
import { whoMustAct } from "./who-acts";

describe("whoMustAct", () => {
  it("names who must act while the request is open", () => {
    expect(whoMustAct({ status: "open", audience: "reviewers" }, "owner")).toBe("A reviewer must act");
    expect(whoMustAct({ status: "open", audience: "owner" }, "owner")).toBe("You must act");
    expect(whoMustAct({ status: "open", audience: "owner" }, "anyone")).toBe("The chat's owner must act");
  });

  it("says nothing once the request is answered, declined, expired or cancelled", () => {
    // A decline is an answer with ok: false, so it has the answered status.
    for (const status of ["answered", "expired", "cancelled"] as const) {
      for (const audience of ["reviewers", "owner"] as const) {
        expect(whoMustAct({ status, audience }, "owner")).toBeNull();
        expect(whoMustAct({ status, audience }, "anyone")).toBeNull();
      }
    }
  });
});
