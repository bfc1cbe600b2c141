import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

// The server actions exactly as the sign-in page calls them. Invalid input must be answered
// before next-auth is asked anything, so these paths need no request context.

const dir = mkdtempSync(path.join(tmpdir(), "toolnexus-login-"));
const saved = { ...process.env };
let actions: typeof import("./actions");

beforeAll(async () => {
  process.env.DATABASE_URL = `file:${path.join(dir, "unused.db")}`;
  process.env.AUTH_SECRET = "login-action-test-secret";
  actions = await import("./actions");
});

beforeEach(() => {
  for (const key of ["TOOLNEXUS_DEMO", "AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"]) delete process.env[key];
});

afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

describe("signInWithPassword", () => {
  it("returns field errors for an empty form and keeps the typed email", async () => {
    const state = await actions.signInWithPassword({ status: "idle" }, form({ email: "", password: "" }));
    expect(state).toEqual({
      status: "invalid",
      email: "",
      fieldErrors: { email: "Enter your email address.", password: "Enter your password." },
    });
  });

  it("rejects a malformed email before trying to sign in", async () => {
    const state = await actions.signInWithPassword(
      { status: "idle" },
      form({ email: "alice", password: "pw" }),
    );
    expect(state).toEqual({
      status: "invalid",
      email: "alice",
      fieldErrors: { email: "Enter a valid email address." },
    });
  });

  it("refuses password sign-in outside demo mode", async () => {
    process.env.TOOLNEXUS_DEMO = "0";
    const state = await actions.signInWithPassword(
      { status: "idle" },
      form({ email: "alice@example.com", password: "toolnexus-demo" }),
    );
    expect(state).toEqual({
      status: "error",
      email: "alice@example.com",
      message: "Password sign-in is only available in demo mode.",
    });
  });
});

describe("signInWithProvider", () => {
  it("sends an unknown or unconfigured provider back to the sign-in page", async () => {
    for (const provider of ["github", "evil", ""]) {
      let thrown: unknown;
      try {
        await actions.signInWithProvider(form({ provider }));
      } catch (error) {
        thrown = error;
      }
      // Next implements redirect() as a throw whose digest carries the target.
      expect(String((thrown as { digest?: string }).digest)).toContain("/login?error=UnknownProvider");
    }
  });
});
