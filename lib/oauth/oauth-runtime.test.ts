import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadOAuthRuntime } from "./oauth-runtime";

describe("OAuth runtime", () => {
  it("needs no key until one is used, then requires it outside demo mode", () => {
    const runtime = loadOAuthRuntime({
      env: { TOOLNEXUS_DEMO: "0", TOOLNEXUS_APP_URL: "https://app.example/x" },
    });
    expect(runtime.registry.size).toBe(0);
    expect(runtime.appUrl).toBe("https://app.example");
    expect(() => runtime.keys).toThrowError(expect.objectContaining({ code: "config:invalid" }));
  });

  it("uses the configured key, and in demo mode the demo provider and a generated key", () => {
    const key = randomBytes(32);
    const configured = loadOAuthRuntime({
      env: { TOOLNEXUS_DEMO: "0", TOOLNEXUS_ENCRYPTION_KEY: key.toString("base64") },
    });
    expect(configured.keys.encryption.equals(key)).toBe(true);

    const dataDir = mkdtempSync(path.join(tmpdir(), "tn-runtime-"));
    const demo = loadOAuthRuntime({ env: { TOOLNEXUS_DEMO: "1", PORT: "3999" }, dataDir });
    expect([...demo.registry.keys()]).toEqual(["demo"]);
    expect(demo.appUrl).toBe("http://localhost:3999");
    const first = demo.keys;
    expect(first.encryption).toHaveLength(32);
    // Read once per runtime, and kept on disk: a restart decrypts what was stored before it.
    expect(demo.keys).toBe(first);
    const restarted = loadOAuthRuntime({ env: { TOOLNEXUS_DEMO: "1", PORT: "3999" }, dataDir });
    expect(restarted.keys.encryption.equals(first.encryption)).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
