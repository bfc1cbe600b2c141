import { describe, expect, it } from "vitest";
import { describeSettingChange, settingChangeKindOf, settingChangeSubject } from "./setting-changes";

describe("setting changes in words", () => {
  it("says what changed without JSON", () => {
    expect(
      describeSettingChange({
        action: "tool.policy_changed",
        detail: { from: "default", to: "free", defaultPolicy: "reviewer" },
      }),
    ).toBe("Policy changed from its default (a reviewer approves) to runs freely.");
    expect(describeSettingChange({ action: "tool.rules_changed", detail: { from: [], to: [{}, {}] } })).toBe(
      "Rules changed from 0 rules to 2 rules.",
    );
    expect(
      describeSettingChange({ action: "approver_group.member_added", detail: { email: "sam@example.test" } }),
    ).toBe("Member added: sam@example.test.");
    expect(settingChangeKindOf("approver_group.renamed")).toBe("group");
    expect(settingChangeKindOf("request.answered")).toBeUndefined();
    expect(settingChangeSubject({ kind: "group", targetId: "grp_1", detail: { slug: "finance" } })).toBe(
      "finance",
    );
  });

  it("says who was away when, and who covered, in UTC", () => {
    const row = {
      kind: "absence" as const,
      targetId: "u-rita",
      detail: {
        delegateId: "u-sam",
        startsAt: "2026-12-09T09:00:00.000Z",
        endsAt: "2026-12-12T17:00:00.000Z",
      },
      names: { "u-rita": "Rita", "u-sam": "Sam" },
    };
    expect(describeSettingChange({ ...row, action: "absence.set" })).toBe(
      "Rita away 9 Dec 2026, 09:00 – 12 Dec 2026, 17:00 UTC, covered by Sam.",
    );
    expect(describeSettingChange({ ...row, action: "absence.ended" })).toBe(
      "Ended early: Rita away 9 Dec 2026, 09:00 – 12 Dec 2026, 17:00 UTC, covered by Sam.",
    );
    expect(settingChangeKindOf("absence.ended")).toBe("absence");
    expect(settingChangeSubject(row)).toBe("Rita");
    // A person since removed is said so, not shown as an id.
    expect(describeSettingChange({ ...row, names: {}, action: "absence.set" })).toBe(
      "a removed user away 9 Dec 2026, 09:00 – 12 Dec 2026, 17:00 UTC, covered by a removed user.",
    );
  });
});
