import { describe, expect, it } from "vitest";
import { clientAddressFrom } from "./client-address";
import { applyForwardedTrust, parseTrustedProxies } from "./forwarded-trust.mjs";

function requestFrom(peer: string, headers: Record<string, string>) {
  return {
    headers: { ...headers } as Record<string, string | string[] | undefined>,
    socket: { remoteAddress: peer },
  };
}

const forged = {
  "x-forwarded-host": "evil.example",
  "x-forwarded-proto": "https",
  "x-forwarded-for": "203.0.113.9",
  forwarded: "for=203.0.113.9;host=evil.example",
};

describe("applyForwardedTrust", () => {
  it("drops every forwarded header from a client that is not a configured proxy", () => {
    const request = requestFrom("198.51.100.4", { host: "app.example", ...forged });
    applyForwardedTrust(request, parseTrustedProxies({}));
    expect(request.headers).toEqual({ host: "app.example", "x-forwarded-for": "198.51.100.4" });
  });

  it("keeps a trusted proxy's headers and appends the proxy itself to the chain", () => {
    const trusted = parseTrustedProxies({ TOOLNEXUS_TRUSTED_PROXIES: "10.0.0.0/8, ::1" });
    const request = requestFrom("::ffff:10.1.2.3", { host: "app.example", ...forged });
    applyForwardedTrust(request, trusted);
    expect(request.headers["x-forwarded-host"]).toBe("evil.example");
    expect(request.headers["x-forwarded-for"]).toBe("203.0.113.9, 10.1.2.3");
    expect(clientAddressFrom(request.headers["x-forwarded-for"] as string, trusted)).toBe("203.0.113.9");
  });

  it("treats an address outside the configured ranges as a client", () => {
    const trusted = parseTrustedProxies({ TOOLNEXUS_TRUSTED_PROXIES: "127.0.0.1" });
    const request = requestFrom("127.0.0.2", { ...forged });
    applyForwardedTrust(request, trusted);
    expect(request.headers["x-forwarded-host"]).toBeUndefined();
    expect(request.headers["x-forwarded-for"]).toBe("127.0.0.2");
  });

  it("refuses a configuration entry that is not an address or range", () => {
    expect(() => parseTrustedProxies({ TOOLNEXUS_TRUSTED_PROXIES: "proxy.internal" })).toThrow(
      /not an IP address or CIDR range/,
    );
  });
});

describe("clientAddressFrom", () => {
  const trusted = parseTrustedProxies({ TOOLNEXUS_TRUSTED_PROXIES: "10.0.0.1, 10.0.0.2" });

  it("skips trusted hops from the right; what a client wrote to their left proves nothing", () => {
    expect(clientAddressFrom("1.1.1.1, 203.0.113.5, 10.0.0.2, 10.0.0.1", trusted)).toBe("203.0.113.5");
    expect(clientAddressFrom("198.51.100.1", trusted)).toBe("198.51.100.1");
    expect(clientAddressFrom(null, trusted)).toBe("unknown");
  });
});
