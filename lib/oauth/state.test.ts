import { randomBytes } from "node:crypto";
import { thrownCode } from "toolnexus/testing";
import { describe, expect, it } from "vitest";
import { hashState, issueState, verifyState } from "./state";

const key = randomBytes(32);
const base = { requestRowId: "req-1", userId: "user-1", provider: "demo", key };

describe("oauth state", () => {
  it("carries the request, user and provider it was issued for", async () => {
    const now = 1_000_000;
    const issued = issueState({ ...base, now, ttlMs: 60_000 });
    expect(verifyState(issued.state, key, now + 1)).toEqual({
      requestRowId: "req-1",
      userId: "user-1",
      provider: "demo",
      expiresAt: now + 60_000,
    });
    expect(issued.expiresAt.getTime()).toBe(now + 60_000);
  });

  it("stores only a hash, and each issue is unique", async () => {
    const a = issueState(base);
    const b = issueState(base);
    expect(a.state).not.toBe(b.state);
    expect(a.stateHash).toBe(hashState(a.state));
    expect(a.stateHash).not.toContain(a.state.slice(0, 10));
    expect(a.stateHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("expires", async () => {
    const issued = issueState({ ...base, now: 0, ttlMs: 1000 });
    expect(await thrownCode(() => verifyState(issued.state, key, 999))).toBe("no error");
    expect(await thrownCode(() => verifyState(issued.state, key, 1000))).toBe("state:expired");
  });

  it("detects a modified payload or signature", async () => {
    const issued = issueState(base);
    const [payload, signature] = issued.state.split(".") as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), u: "user-2" }),
    ).toString("base64url");
    expect(await thrownCode(() => verifyState(`${forged}.${signature}`, key))).toBe("state:tampered");
    const badSig = signature.startsWith("A") ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(await thrownCode(() => verifyState(`${payload}.${badSig}`, key))).toBe("state:tampered");
  });

  it("refuses a state signed with another key", async () => {
    const issued = issueState(base);
    expect(await thrownCode(() => verifyState(issued.state, randomBytes(32)))).toBe("state:tampered");
  });

  it("refuses malformed values", async () => {
    expect(await thrownCode(() => verifyState("", key))).toBe("state:malformed");
    expect(await thrownCode(() => verifyState("nodot", key))).toBe("state:malformed");
    expect(await thrownCode(() => verifyState("a.b.c", key))).toBe("state:malformed");
  });
});
