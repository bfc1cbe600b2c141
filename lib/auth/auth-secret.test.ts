import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveAuthSecret } from "./auth-secret";

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "toolnexus-secret-"));
  dirs.push(dir);
  return path.join(dir, "data", ".auth-secret");
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("resolveAuthSecret", () => {
  it("prefers AUTH_SECRET and writes nothing", () => {
    const file = tempFile();
    expect(resolveAuthSecret({ env: { AUTH_SECRET: "from-env" }, file })).toBe("from-env");
    expect(() => statSync(file)).toThrow();
  });

  it("generates one private secret in demo mode and reuses it afterwards", () => {
    const file = tempFile();
    const first = resolveAuthSecret({ env: {}, file });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, "utf8")).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveAuthSecret({ env: {}, file })).toBe(first);
  });

  it("never invents a secret outside demo mode", () => {
    const file = tempFile();
    const env = { AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "secret" };
    expect(resolveAuthSecret({ env, file })).toBeUndefined();
    expect(resolveAuthSecret({ env: { TOOLNEXUS_DEMO: "0" }, file })).toBeUndefined();
    expect(() => statSync(file)).toThrow();
  });
});
