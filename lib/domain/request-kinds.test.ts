import { describe, expect, it } from "vitest";
import {
  isKnownRequestKind,
  KNOWN_REQUEST_KINDS,
  OTHER_REQUEST_KIND,
  REQUEST_KINDS,
  requestKindSpec,
} from "./request-kinds";

describe("the registry of request kinds", () => {
  it("knows the kinds tools ask, each with its own form", () => {
    expect(KNOWN_REQUEST_KINDS).toEqual(["approval", "input", "question", "authorization"]);
    expect(new Set(KNOWN_REQUEST_KINDS.map((kind) => REQUEST_KINDS[kind].form)).size).toBe(4);
    expect(new Set(KNOWN_REQUEST_KINDS.map((kind) => REQUEST_KINDS[kind].label)).size).toBe(4);
  });

  it("sends approvals to reviewers, in bulk if need be, and everything else to the owner", () => {
    expect(requestKindSpec("approval")).toMatchObject({ audience: "reviewers", bulkApprovable: true });
    for (const kind of ["input", "question", "authorization"]) {
      expect(requestKindSpec(kind)).toMatchObject({ audience: "owner", bulkApprovable: false });
    }
  });

  it("keeps sign-ins out of the API: they need a tool's OAuth flow", () => {
    expect(KNOWN_REQUEST_KINDS.filter((kind) => !REQUEST_KINDS[kind].creatableByApi)).toEqual([
      "authorization",
    ]);
  });

  it("answers a program's own kind as data, by its owner", () => {
    expect(isKnownRequestKind("deploy-window")).toBe(false);
    expect(requestKindSpec("deploy-window")).toBe(OTHER_REQUEST_KIND);
    expect(OTHER_REQUEST_KIND).toMatchObject({ audience: "owner", form: "data", creatableByApi: true });
    // A name inherited from Object.prototype is no kind of ours.
    expect(requestKindSpec("constructor")).toBe(OTHER_REQUEST_KIND);
  });
});
