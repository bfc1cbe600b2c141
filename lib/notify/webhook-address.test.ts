import { describe, expect, it } from "vitest";
import { isInternalAddress, privateAddressesAllowed, webhookUrlProblem } from "./webhook-address";

describe("where webhooks may go", () => {
  it("takes only http and https URLs without credentials", () => {
    expect(webhookUrlProblem("https://hooks.example.com/in", false)).toBeNull();
    expect(webhookUrlProblem("http://hooks.example.com/in", false)).toBeNull();
    for (const url of [
      "ftp://hooks.example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "gopher://x/",
    ]) {
      expect(webhookUrlProblem(url, true)).toMatch(/Only http and https/);
    }
    expect(webhookUrlProblem("not a url", true)).toMatch(/full URL/);
    expect(webhookUrlProblem("https://user:pass@hooks.example.com/", true)).toMatch(/credentials/);
  });

  it("refuses loopback, private and link-local addresses unless the setting allows them", () => {
    for (const url of [
      "http://localhost:3000/",
      "http://127.0.0.1/",
      "http://10.1.2.3/",
      "http://172.20.0.1/",
      "http://192.168.1.1/",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/",
      "http://[fd00::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://0.0.0.0/",
    ]) {
      expect(webhookUrlProblem(url, false), url).toMatch(/private network/);
      expect(webhookUrlProblem(url, true), url).toBeNull();
    }
    expect(isInternalAddress("93.184.216.34")).toBe(false);
    expect(isInternalAddress("2606:4700::1111")).toBe(false);
    expect(isInternalAddress("not-an-address")).toBe(true);
  });

  it("allows private addresses only when TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE is 1", () => {
    expect(privateAddressesAllowed({})).toBe(false);
    expect(privateAddressesAllowed({ TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE: "true" })).toBe(false);
    expect(privateAddressesAllowed({ TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE: "1" })).toBe(true);
  });
});
