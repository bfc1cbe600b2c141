import { describe, expect, it } from "vitest";
import { isPublicAddress, outboundPrivateAllowed, outboundUrlProblem } from "./outbound-address";

// Every form the policy must refuse: loopback, private, link-local (the cloud metadata address),
// carrier-grade NAT, unspecified, multicast, reserved, documentation and benchmarking ranges, and
// IPv6 addresses that carry one of those in an IPv4 form.
const REFUSED_HOSTS = [
  "127.0.0.1",
  "127.9.9.9",
  "10.1.2.3",
  "172.20.0.1",
  "192.168.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "0.0.0.0",
  "224.0.0.1",
  "240.0.0.1",
  "255.255.255.255",
  "192.0.0.8",
  "192.0.2.2",
  "198.51.100.7",
  "203.0.113.9",
  "198.18.0.1",
  "198.19.255.254",
  "[::]",
  "[::1]",
  "[fd00::1]",
  "[fe80::1]",
  "[fec0::1]",
  "[ff02::1]",
  "[2001:db8::1]",
  "[2001:2::1]",
  "[100::1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:169.254.169.254]",
  "[::7f00:1]",
  "[::a00:1]",
  "[64:ff9b::127.0.0.1]",
  "[64:ff9b::a9fe:a9fe]",
  "[64:ff9b:1::808:808]",
  "[2002:7f00:1::]",
  "[2002:c0a8:101::1]",
  // Teredo whose client (stored inverted) is 127.0.0.1.
  "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
];

describe("the outbound address policy", () => {
  it("allows only globally routable unicast addresses", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "2a00:1450:4001::1"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    // IPv6 forms carrying a public IPv4 address reach that address: allowed like it.
    for (const address of ["::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "::808:808"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const host of REFUSED_HOSTS) {
      expect(isPublicAddress(host.replace(/^\[|\]$/g, "")), host).toBe(false);
    }
    expect(isPublicAddress("not-an-address")).toBe(false);
  });

  it("refuses every such address, and localhost, in a URL unless private addresses are allowed", () => {
    const urls = [
      ...REFUSED_HOSTS.map((host) => `http://${host}:8080/path`),
      "http://localhost:3000/",
      "http://api.localhost/",
      // Other spellings of 127.0.0.1 that URL parsing turns into it.
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0177.0.0.1/",
    ];
    for (const url of urls) {
      expect(outboundUrlProblem(url, false), url).toMatch(/private network or reserved/);
      expect(outboundUrlProblem(url, true), url).toBeNull();
    }
    expect(outboundUrlProblem("https://hooks.example.com/in", false)).toBeNull();
    expect(outboundUrlProblem("http://93.184.216.34/mcp", false)).toBeNull();
  });

  it("takes only http and https URLs without credentials", () => {
    for (const url of [
      "ftp://hooks.example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "gopher://x/",
    ]) {
      expect(outboundUrlProblem(url, true)).toMatch(/Only http and https/);
    }
    expect(outboundUrlProblem("not a url", true)).toMatch(/full URL/);
    expect(outboundUrlProblem("https://user:pass@hooks.example.com/", true)).toMatch(/credentials/);
  });

  it("lifts the rule only for TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE=1, or the older webhooks setting", () => {
    expect(outboundPrivateAllowed({})).toBe(false);
    expect(outboundPrivateAllowed({ TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE: "true" })).toBe(false);
    expect(outboundPrivateAllowed({ TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE: "1" })).toBe(true);
    expect(outboundPrivateAllowed({ TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE: "1" })).toBe(true);
  });
});
