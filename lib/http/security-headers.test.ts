import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce, staticSecurityHeaders } from "./security-headers";

describe("security headers", () => {
  it("sends HSTS and upgrades requests only over HTTPS", () => {
    expect(staticSecurityHeaders({ https: true })["Strict-Transport-Security"]).toBe(
      "max-age=63072000; includeSubDomains",
    );
    expect(staticSecurityHeaders({ https: false })["Strict-Transport-Security"]).toBeUndefined();
    expect(contentSecurityPolicy({ nonce: "n", dev: false, https: true })).toContain(
      "upgrade-insecure-requests",
    );
    expect(contentSecurityPolicy({ nonce: "n", dev: false, https: false })).not.toContain("upgrade-insecure");
  });

  it("allows scripts only by nonce, never inline, and no framing", () => {
    const csp = contentSecurityPolicy({ nonce: "abc123", dev: false, https: false });
    const scripts = csp.split("; ").find((directive) => directive.startsWith("script-src"))!;
    expect(scripts).toContain("'nonce-abc123'");
    expect(scripts).not.toContain("'unsafe-inline'");
    // Nothing in production turns strings into code; only `next dev` needs it for reloading.
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(contentSecurityPolicy({ nonce: "n", dev: true, https: false })).toContain("'unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it("makes a new 128-bit nonce every time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    expect(atob([...nonces][0]!)).toHaveLength(16);
  });
});
