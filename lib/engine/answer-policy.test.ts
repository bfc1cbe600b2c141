import { describe, expect, it } from "vitest";
import { createAnswerPolicy } from "./answer-policy";

const owner = { id: "u1", role: "user" as const };
const stranger = { id: "u2", role: "user" as const };
const reviewer = { id: "r1", role: "reviewer" as const };
const admin = { id: "a1", role: "admin" as const };

describe("createAnswerPolicy", () => {
  it("sends approvals to reviewers and everything the owner knows to the owner", () => {
    const policy = createAnswerPolicy();
    expect(policy.audienceFor({ kind: "approval" })).toBe("reviewers");
    for (const kind of ["input", "question", "authorization", "something-new"]) {
      expect(policy.audienceFor({ kind })).toBe("owner");
    }
  });

  it("is configurable per kind and for unknown kinds", () => {
    const policy = createAnswerPolicy({ audienceByKind: { approval: "owner" }, fallback: "reviewers" });
    expect(policy.audienceFor({ kind: "approval" })).toBe("owner");
    expect(policy.audienceFor({ kind: "input" })).toBe("owner");
    expect(policy.audienceFor({ kind: "budget" })).toBe("reviewers");
  });

  it("sends an approval to the audience the tool gate named, and ignores that key on other kinds", () => {
    const policy = createAnswerPolicy();
    expect(policy.audienceFor({ kind: "approval", data: { audience: "owner" } })).toBe("owner");
    expect(policy.audienceFor({ kind: "approval", data: { audience: "reviewers" } })).toBe("reviewers");
    expect(policy.audienceFor({ kind: "approval", data: { audience: "anyone" } })).toBe("reviewers");
    expect(policy.audienceFor({ kind: "input", data: { audience: "reviewers" } })).toBe("owner");
  });

  it("lets only the owner answer owner requests, and only reviewers or admins answer reviewer ones", () => {
    const policy = createAnswerPolicy();
    const ownerRequest = { audience: "owner" as const, ownerId: "u1" };
    const reviewRequest = { audience: "reviewers" as const, ownerId: "u1" };
    expect(policy.mayAnswer({ ...ownerRequest, actor: owner })).toBe(true);
    expect(policy.mayAnswer({ ...ownerRequest, actor: stranger })).toBe(false);
    expect(policy.mayAnswer({ ...ownerRequest, actor: reviewer })).toBe(false);
    expect(policy.mayAnswer({ ...reviewRequest, actor: owner })).toBe(false);
    expect(policy.mayAnswer({ ...reviewRequest, actor: reviewer })).toBe(true);
    expect(policy.mayAnswer({ ...reviewRequest, actor: admin })).toBe(true);
  });

  it("lets the owner or an admin cancel a run", () => {
    const policy = createAnswerPolicy();
    expect(policy.mayCancel({ actor: owner, ownerId: "u1" })).toBe(true);
    expect(policy.mayCancel({ actor: admin, ownerId: "u1" })).toBe(true);
    expect(policy.mayCancel({ actor: reviewer, ownerId: "u1" })).toBe(false);
    expect(policy.mayCancel({ actor: stranger, ownerId: "u1" })).toBe(false);
  });
});
