import { describe, expect, it } from "vitest";
import { followableUrl } from "./followable-url";

describe("followableUrl", () => {
  it("keeps web links and same-site paths", () => {
    expect(followableUrl("http://localhost:3000/oauth/demo/start?request=a")).toBe(
      "http://localhost:3000/oauth/demo/start?request=a",
    );
    expect(followableUrl("https://example.com/x")).toBe("https://example.com/x");
    expect(followableUrl("/oauth/demo/start?request=a")).toBe("/oauth/demo/start?request=a");
  });

  it("drops scripts, data, protocol-relative and unparsable links", () => {
    expect(followableUrl("javascript:alert(1)")).toBeUndefined();
    expect(followableUrl("data:text/html,hi")).toBeUndefined();
    expect(followableUrl("//evil.example/x")).toBeUndefined();
    expect(followableUrl("not a url")).toBeUndefined();
    expect(followableUrl(undefined)).toBeUndefined();
  });
});
