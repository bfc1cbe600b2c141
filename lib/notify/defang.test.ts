import { describe, expect, it } from "vitest";
import { defang } from "./defang";

describe("defang", () => {
  it("breaks web addresses, bare domains, e-mail and IP addresses so no mail client links them", () => {
    expect(defang("Session expired: sign in again at https://evil.example/login")).toBe(
      "Session expired: sign in again at hxxps://evil[.]example/login",
    );
    expect(defang("HTTP://Evil.Example:8080/a?b=c.d")).toBe("HxxP://Evil[.]Example:8080/a?b=c[.]d");
    expect(defang("see www.evil.com or evil.co.uk")).toBe("see www[.]evil[.]com or evil[.]co[.]uk");
    expect(defang("mail bob@evil.example")).toBe("mail bob@evil[.]example");
    expect(defang("ftp://files.evil.example")).toBe("ftp[:]//files[.]evil[.]example");
    expect(defang("http://10.0.0.1/admin")).toBe("hxxp://10[.]0[.]0[.]1/admin");
    // Full stops a browser reads as dots, and invisible characters hiding a name.
    expect(defang("evil\u3002example and evil\uFF0Eexample")).toBe("evil[.]example and evil[.]example");
    expect(defang("evil\u200B.example \u202Egnp.exe")).toBe("evil[.]example gnp[.]exe");
  });

  it("leaves ordinary prose, version numbers and amounts alone", () => {
    expect(defang("Deploy web v1.4.2 to production? It costs 3.50 EUR.")).toBe(
      "Deploy web v1.4.2 to production? It costs 3.50 EUR.",
    );
    expect(defang("Approve the refund\nfor order 9")).toBe("Approve the refund\nfor order 9");
  });
});
