import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isOAuthError } from "./oauth-error";
import { decryptToken, encryptToken } from "./token-crypto";

const key = randomBytes(32);
const context = "oauth:user-1:demo:access";

function flipCharAt(text: string, index: number): string {
  const ch = text[index] === "A" ? "B" : "A";
  return text.slice(0, index) + ch + text.slice(index + 1);
}

describe("token encryption", () => {
  it("round-trips and never stores the plaintext", () => {
    const sealed = encryptToken("secret-access-token-ü", key, context);
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(sealed).not.toContain("secret-access-token");
    expect(decryptToken(sealed, key, context)).toBe("secret-access-token-ü");
  });

  it("uses a fresh IV each time", () => {
    expect(encryptToken("same", key, context)).not.toBe(encryptToken("same", key, context));
  });

  it("detects a modified ciphertext, IV or tag", () => {
    const sealed = encryptToken("secret-access-token", key, context);
    const parts = sealed.split(".");
    for (const index of [2, 3, 4]) {
      const altered = [...parts];
      altered[index] = flipCharAt(altered[index]!, 1);
      expect(() => decryptToken(altered.join("."), key, context)).toThrowError(
        expect.objectContaining({ code: "token:tampered" }),
      );
    }
  });

  it("refuses a ciphertext moved to another user or provider", () => {
    const sealed = encryptToken("secret", key, context);
    let caught: unknown;
    try {
      decryptToken(sealed, key, "oauth:user-2:demo:access");
    } catch (error) {
      caught = error;
    }
    expect(isOAuthError(caught, "token:tampered")).toBe(true);
  });

  it("tells a different key apart from tampering", () => {
    const sealed = encryptToken("secret", key, context);
    expect(() => decryptToken(sealed, randomBytes(32), context)).toThrowError(
      expect.objectContaining({ code: "token:wrong_key" }),
    );
  });

  it("rejects unknown formats and bad keys", () => {
    expect(() => decryptToken("v2.a.b.c.d", key, context)).toThrowError(
      expect.objectContaining({ code: "token:malformed" }),
    );
    expect(() => decryptToken("plaintext", key, context)).toThrowError(
      expect.objectContaining({ code: "token:malformed" }),
    );
    expect(() => encryptToken("x", randomBytes(16), context)).toThrowError(
      expect.objectContaining({ code: "config:invalid" }),
    );
  });

  it("reads tokens sealed with a previous key after a rotation", () => {
    const old = randomBytes(32);
    const current = randomBytes(32);
    const sealed = encryptToken("secret", old, context);
    expect(decryptToken(sealed, [current, old], context)).toBe("secret");
    expect(decryptToken(encryptToken("new", current, context), [current, old], context)).toBe("new");
    expect(() => decryptToken(sealed, [current], context)).toThrowError(
      expect.objectContaining({ code: "token:wrong_key" }),
    );
  });
});
