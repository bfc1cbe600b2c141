import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decryptionKeys, loadSecretKeys } from "./secret-keys";

describe("secret keys", () => {
  it("uses the configured encryption key and derives a distinct state key", () => {
    const key = randomBytes(32);
    const keys = loadSecretKeys({
      env: { TOOLNEXUS_ENCRYPTION_KEY: key.toString("base64") },
      demoMode: false,
    });
    expect(keys.encryption.equals(key)).toBe(true);
    expect(keys.state.length).toBe(32);
    expect(keys.state.equals(key)).toBe(false);
  });

  it("takes the state key from TOOLNEXUS_SECRET_KEY when set", () => {
    const env = { TOOLNEXUS_ENCRYPTION_KEY: randomBytes(32).toString("base64") };
    const derived = loadSecretKeys({ env, demoMode: false }).state;
    const own = loadSecretKeys({ env: { ...env, TOOLNEXUS_SECRET_KEY: "s3cret" }, demoMode: false }).state;
    expect(own.equals(derived)).toBe(false);
  });

  it("rejects a key of the wrong size", () => {
    expect(() =>
      loadSecretKeys({
        env: { TOOLNEXUS_ENCRYPTION_KEY: randomBytes(16).toString("base64") },
        demoMode: false,
      }),
    ).toThrowError(expect.objectContaining({ code: "config:invalid" }));
  });

  it("requires a key outside demo mode", () => {
    expect(() => loadSecretKeys({ env: {}, demoMode: false })).toThrowError(
      expect.objectContaining({ code: "config:invalid" }),
    );
  });

  it("generates and persists a private key in demo mode", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tn-keys-"));
    const first = loadSecretKeys({ env: {}, demoMode: true, dataDir });
    const second = loadSecretKeys({ env: {}, demoMode: true, dataDir });
    expect(first.encryption.equals(second.encryption)).toBe(true);
    expect(first.state.equals(second.state)).toBe(true);
    const file = path.join(dataDir, "encryption.key");
    expect(Buffer.from(readFileSync(file, "utf8").trim(), "base64").equals(first.encryption)).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it("reads previous keys for decryption only", () => {
    const current = randomBytes(32);
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const keys = loadSecretKeys({
      env: {
        TOOLNEXUS_ENCRYPTION_KEY: current.toString("base64"),
        TOOLNEXUS_ENCRYPTION_KEY_PREVIOUS: `${a.toString("base64")}, ${b.toString("base64")}`,
      },
      demoMode: false,
    });
    expect(keys.encryption.equals(current)).toBe(true);
    expect(decryptionKeys(keys).map((k) => k.toString("hex"))).toEqual(
      [current, a, b].map((k) => k.toString("hex")),
    );
    expect(() =>
      loadSecretKeys({
        env: {
          TOOLNEXUS_ENCRYPTION_KEY: current.toString("base64"),
          TOOLNEXUS_ENCRYPTION_KEY_PREVIOUS: "short",
        },
        demoMode: false,
      }),
    ).toThrowError(
      expect.objectContaining({ message: expect.stringContaining("TOOLNEXUS_ENCRYPTION_KEY_PREVIOUS") }),
    );
  });
});
