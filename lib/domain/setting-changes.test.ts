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
});
