import { describe, expect, it } from "vitest";
import { parseLoginForm, safeCallbackPath } from "./login-input";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

describe("parseLoginForm", () => {
  it("accepts an email and password, trimming the email", () => {
    expect(
      parseLoginForm(form({ email: "  alice@example.com ", password: "pw", callbackUrl: "/inbox" })),
    ).toEqual({
      status: "valid",
      input: { email: "alice@example.com", password: "pw", callbackUrl: "/inbox" },
    });
  });

  it("reports each missing or malformed field once", () => {
    expect(parseLoginForm(form({}))).toEqual({
      status: "invalid",
      fieldErrors: { email: "Enter your email address.", password: "Enter your password." },
    });
    expect(parseLoginForm(form({ email: "alice", password: "pw" }))).toEqual({
      status: "invalid",
      fieldErrors: { email: "Enter a valid email address." },
    });
  });

  it("rejects an oversized password and non-string fields", () => {
    expect(parseLoginForm(form({ email: "a@example.com", password: "x".repeat(201) }))).toMatchObject({
      status: "invalid",
      fieldErrors: { password: "That password is too long." },
    });
    const withFile = new FormData();
    withFile.set("email", new Blob(["a@example.com"]));
    withFile.set("password", "pw");
    expect(parseLoginForm(withFile).status).toBe("invalid");
  });
});

describe("safeCallbackPath", () => {
  it("keeps same-site paths", () => {
    expect(safeCallbackPath("/requests/abc?x=1")).toBe("/requests/abc?x=1");
  });

  it.each([
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
    "/\tinbox",
    "",
    undefined,
  ])("falls back to the home page for %s", (raw) => {
    expect(safeCallbackPath(raw)).toBe("/");
  });
});
