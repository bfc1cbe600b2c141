import { describe, expect, it } from "vitest";
import { hasRole, parseRole } from "@/lib/domain/roles";
import { type AppError, isAppError } from "@/lib/errors";
import { ensureRole } from "./guards";
import { userFromSession } from "./session-user";

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("userFromSession", () => {
  it("reads id, email, name and role from a session", () => {
    const session = { user: { id: "u1", email: "a@example.com", name: "A", role: "reviewer" }, expires: "x" };
    expect(userFromSession(session)).toEqual({
      id: "u1",
      email: "a@example.com",
      name: "A",
      role: "reviewer",
    });
  });

  it("normalises absent name and email to null", () => {
    expect(userFromSession({ user: { id: "u1", role: "user" } })).toEqual({
      id: "u1",
      email: null,
      name: null,
      role: "user",
    });
  });

  it.each([
    ["no session", null],
    ["no user", { expires: "x" }],
    ["no id", { user: { role: "user" } }],
    ["empty id", { user: { id: "", role: "user" } }],
    ["unknown role", { user: { id: "u1", role: "root" } }],
  ])("answers 401 for %s", (_label, session) => {
    const error = thrown(() => userFromSession(session));
    expect(error.code).toBe("unauthorized:session");
    expect(error.status).toBe(401);
  });
});

describe("roles", () => {
  it("ranks admin over reviewer over user", () => {
    expect(hasRole("admin", "reviewer")).toBe(true);
    expect(hasRole("reviewer", "reviewer")).toBe(true);
    expect(hasRole("reviewer", "admin")).toBe(false);
    expect(hasRole("user", "reviewer")).toBe(false);
    expect(hasRole("user", "user")).toBe(true);
  });

  it("treats unknown stored roles as the least privileged", () => {
    expect(parseRole("admin")).toBe("admin");
    expect(parseRole("superuser")).toBe("user");
    expect(parseRole(undefined)).toBe("user");
  });

  it("ensureRole passes the user through or answers 403", () => {
    const reviewer = { id: "r", email: null, name: null, role: "reviewer" as const };
    expect(ensureRole(reviewer, "user")).toBe(reviewer);
    const error = thrown(() => ensureRole(reviewer, "admin"));
    expect(error.code).toBe("forbidden:role");
    expect(error.status).toBe(403);
  });
});
