import { describe, expect, it } from "vitest";
import { authRequired, nextRequestId, pending, pendingOf } from "./pending";
import type { RunResult } from "./types";

describe("pending", () => {
  it("generates pnd-<base36 time>-<n> ids from one process-wide counter", () => {
    const before = Date.now();
    const first = pendingOf(pending({ kind: "input", prompt: "a" }))!.id;
    const second = pendingOf(pending({ kind: "input", prompt: "b" }))!.id;
    const match = /^pnd-([0-9a-z]+)-(\d+)$/.exec(first);
    expect(match).not.toBeNull();
    const stamp = Number.parseInt(match![1]!, 36);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    expect(Number(/-(\d+)$/.exec(second)![1])).toBe(Number(match![2]) + 1);
    expect(nextRequestId()).toMatch(new RegExp(`-${Number(match![2]) + 2}$`));
  });

  it("uses a supplied id verbatim and keeps every optional it was given", () => {
    const res = pending({
      kind: "input",
      prompt: "Which region?",
      id: "req-region-42",
      data: { choices: ["eu", "us"] },
      expiresAt: "2026-12-31T23:59:59Z",
    });
    expect(res).toEqual({
      output: "Which region?",
      isError: true,
      metadata: {
        pending: {
          id: "req-region-42",
          kind: "input",
          prompt: "Which region?",
          data: { choices: ["eu", "us"] },
          expiresAt: "2026-12-31T23:59:59Z",
        },
      },
    });
  });

  it("omits absent optionals entirely instead of writing undefined or null", () => {
    const req = pendingOf(pending({ kind: "approval", prompt: "OK?" }))!;
    expect(Object.keys(req).sort()).toEqual(["id", "kind", "prompt"]);
    expect(JSON.stringify(req)).not.toContain("null");
  });

  it("keeps the caller's key order, a generated id last and a supplied one where it was given", () => {
    const generated = pendingOf(
      pending({ prompt: "p", kind: "input", url: "https://x.test", data: { a: 1 } }),
    )!;
    expect(Object.keys(generated)).toEqual(["prompt", "kind", "url", "data", "id"]);
    const supplied = pendingOf(pending({ id: "r1", kind: "input", prompt: "p" }))!;
    expect(Object.keys(supplied)).toEqual(["id", "kind", "prompt"]);
  });

  it("appends the url to the output on its own line", () => {
    const res = pending({ kind: "authorization", prompt: "Log in first", url: "https://example.com/login" });
    expect(res.output).toBe("Log in first\nhttps://example.com/login");
    expect(pendingOf(res)?.url).toBe("https://example.com/login");
  });
});

describe("authRequired", () => {
  it("is an authorization suspension with a default prompt", () => {
    const res = authRequired("https://idp.test/authorize");
    const req = pendingOf(res)!;
    expect(req.kind).toBe("authorization");
    expect(req.prompt).toBe("Authorization required to continue");
    expect(res.output).toBe("Authorization required to continue\nhttps://idp.test/authorize");
    expect(res.isError).toBe(true);
  });

  it("takes a custom prompt", () => {
    expect(authRequired("https://x.test", "Connect GitHub").output).toBe("Connect GitHub\nhttps://x.test");
  });
});

describe("pendingOf", () => {
  it("returns undefined for ordinary results, errors and junk metadata", () => {
    expect(pendingOf({ output: "fine", isError: false })).toBeUndefined();
    expect(pendingOf({ output: "boom", isError: true })).toBeUndefined();
    expect(pendingOf({ output: "x", isError: true, metadata: { pending: "nope" } })).toBeUndefined();
    expect(pendingOf(undefined)).toBeUndefined();
  });

  it("reads a halted RunResult's pending request, and nothing from a finished one", () => {
    const request = { id: "r1", kind: "approval", prompt: "p" };
    const base: Omit<RunResult, "status"> = {
      text: "",
      messages: [],
      transcript: [],
      toolCalls: [],
      toolCallCount: 0,
      turns: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      model: "m",
    };
    expect(pendingOf({ ...base, status: "pending", pending: request })).toBe(request);
    expect(pendingOf({ ...base, status: "done" })).toBeUndefined();
  });
});
