import { describe, expect, it } from "vitest";
import { createAnswerPolicy, groupAddressFor } from "./answer-policy";

describe("an approval the gate addressed to a group", () => {
  const policy = createAnswerPolicy();
  const approval = (data: Record<string, unknown>) => ({ kind: "approval", data });

  it("is stored for the group, with how many approvals it needs", () => {
    const request = approval({ audience: "group", audienceGroup: "finance", required: 2 });
    expect(policy.audienceFor(request)).toBe("group");
    expect(groupAddressFor(request)).toEqual({ audienceGroup: "finance", required: 2 });
  });

  it("falls back to the kind's audience when the group or the count is not usable", () => {
    for (const data of [
      { audience: "group", required: 2 },
      { audience: "group", audienceGroup: "finance", required: 0 },
      { audience: "group", audienceGroup: "finance", required: 1.5 },
      { audience: "group", audienceGroup: "finance", required: 11 },
    ]) {
      expect(policy.audienceFor(approval(data))).toBe("reviewers");
      expect(groupAddressFor(approval(data))).toBeUndefined();
    }
  });

  it("is only honoured for kinds the gate may address", () => {
    const question = { kind: "question", data: { audience: "group", audienceGroup: "finance", required: 1 } };
    expect(policy.audienceFor(question)).toBe("owner");
    expect(groupAddressFor(question)).toBeUndefined();
  });
});
