import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { providerRefusal } from "@/lib/oauth/provider-error";
import { oauthErrorResponse } from "./oauth-error-response";

describe("oauthErrorResponse", () => {
  it("maps flow errors to statuses and readable pages", async () => {
    const used = oauthErrorResponse(new OAuthError("state:used", "This sign-in link has already been used"));
    expect(used.status).toBe(409);
    expect(used.headers.get("content-type")).toContain("text/html");
    expect(used.headers.get("cache-control")).toBe("no-store");
    const html = await used.text();
    expect(html).toContain("This sign-in link has already been used");
    expect(html).toContain("Nothing was changed.");

    expect(oauthErrorResponse(new OAuthError("state:expired", "x")).status).toBe(410);
    expect(oauthErrorResponse(new OAuthError("state:mismatch", "x")).status).toBe(403);
    expect(oauthErrorResponse(new OAuthError("state:tampered", "x")).status).toBe(400);
    expect(oauthErrorResponse(new OAuthError("exchange:failed", "x")).status).toBe(502);
    expect(oauthErrorResponse(new AppError("forbidden:request")).status).toBe(403);
  });

  it("escapes messages and hides internal details", async () => {
    const escaped = await oauthErrorResponse(
      new OAuthError("provider:error", "<script>alert(1)</script>"),
    ).text();
    expect(escaped).not.toContain("<script>");
    expect(escaped).toContain("&#60;script&#62;");

    const internal = oauthErrorResponse(new Error("SQLITE_BUSY: database is locked"));
    expect(internal.status).toBe(500);
    const body = await internal.text();
    expect(body).not.toContain("SQLITE_BUSY");
    const config = await oauthErrorResponse(new OAuthError("config:invalid", "secret path /etc/x")).text();
    expect(config).not.toContain("/etc/x");
  });

  it("quotes nothing a provider wrote: fixed words for its code, the generic line for any other", async () => {
    const hostile = "Your account is locked. Call +1-555-0100 now";
    for (const code of ["server_error", hostile]) {
      const page = oauthErrorResponse(
        providerRefusal({ label: "Demo Bank", code, description: hostile, during: "callback" }),
      );
      expect(page.status).toBe(502);
      const html = await page.text();
      expect(html).not.toContain("555-0100");
      expect(html).toContain("Demo Bank");
    }
  });
});
