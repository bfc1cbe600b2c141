import { describe, expect, it } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase } from "@/lib/db/testing/test-database";
import { toPublicError } from "@/lib/errors";
import { changeUserRole } from "./change-user-role";

let db: Db;
withTestEngine((started) => ({ db } = started));

/** Everything a role change writes: the user's role and the audit trail about them. */
async function stateOf(userId: string, on: Db = db) {
  const user = await on.user.findUnique({ where: { id: userId }, select: { role: true } });
  const audit = await on.auditLog.findMany({
    where: { targetType: "user", targetId: userId },
    select: { actorId: true, action: true, detail: true },
  });
  return { role: user?.role, audit };
}

function change(actor: SessionUser, input: unknown, on: Db = db) {
  return changeUserRole({ actor, input }, { db: on });
}

describe("changeUserRole", () => {
  it("lets an admin promote a user, and records who did it", async () => {
    const admin = await newUser(db, "admin");
    const user = await newUser(db, "user");

    await expect(change(admin, { userId: user.id, role: "reviewer" })).resolves.toEqual({
      userId: user.id,
      role: "reviewer",
      changed: true,
    });
    expect(await stateOf(user.id)).toEqual({
      role: "reviewer",
      audit: [{ actorId: admin.id, action: "user.role_changed", detail: { from: "user", to: "reviewer" } }],
    });
  });

  it("lets an admin demote another admin while one remains", async () => {
    const admin = await newUser(db, "admin");
    const other = await newUser(db, "admin");
    await change(admin, { userId: other.id, role: "user" });
    expect((await stateOf(other.id)).role).toBe("user");
  });

  it("writes nothing when the role is already the chosen one", async () => {
    const admin = await newUser(db, "admin");
    const reviewer = await newUser(db, "reviewer");
    await expect(change(admin, { userId: reviewer.id, role: "reviewer" })).resolves.toMatchObject({
      changed: false,
    });
    expect(await stateOf(reviewer.id)).toEqual({ role: "reviewer", audit: [] });
  });

  it.each(["user", "reviewer"] as const)("refuses a %s, and changes nothing", async (role) => {
    const actor = await newUser(db, role);
    const target = await newUser(db, "user");
    for (const wanted of ["reviewer", "admin"] as const) {
      expect(await codeOf(change(actor, { userId: target.id, role: wanted }))).toBe("forbidden:role");
    }
    // Not even their own role.
    expect(await codeOf(change(actor, { userId: actor.id, role: "admin" }))).toBe("forbidden:role");
    expect(await stateOf(target.id)).toEqual({ role: "user", audit: [] });
    expect(await stateOf(actor.id)).toEqual({ role, audit: [] });
  });

  it("refuses an admin's change of their own role, and changes nothing", async () => {
    const admin = await newUser(db, "admin");
    await newUser(db, "admin");
    const error = await change(admin, { userId: admin.id, role: "user" }).catch((e: unknown) => e);
    expect(toPublicError(error)).toMatchObject({
      code: "forbidden:own_role",
      status: 403,
      message: "You cannot change your own role. Ask another admin to do it.",
    });
    expect(await stateOf(admin.id)).toEqual({ role: "admin", audit: [] });
  });

  it("reports an unknown user as not found", async () => {
    const admin = await newUser(db, "admin");
    expect(await codeOf(change(admin, { userId: "no-such-user", role: "reviewer" }))).toBe("not_found:user");
    expect(await stateOf("no-such-user")).toEqual({ role: undefined, audit: [] });
  });

  it("refuses to demote the last admin with a message saying why, and changes nothing", async () => {
    // A database of its own: the shared one holds the other tests' admins.
    const own = await createTestDatabase("sqlite");
    try {
      const only = await newUser(own.db, "admin");
      // Authorised as an admin a moment ago, demoted since: the last admin is now someone else.
      const former = await newUser(own.db, "user");
      const error = await change(
        { ...former, role: "admin" },
        { userId: only.id, role: "reviewer" },
        own.db,
      ).catch((e: unknown) => e);
      expect(toPublicError(error)).toEqual({
        code: "conflict:last_admin",
        status: 409,
        message: "This is the last admin. Make someone else an admin before changing this role.",
        issues: [],
      });
      expect(await stateOf(only.id, own.db)).toEqual({ role: "admin", audit: [] });
    } finally {
      await own.drop();
    }
  });

  it.each([
    ["a missing role", (userId: string) => ({ userId })],
    ["an unknown role", (userId: string) => ({ userId, role: "owner" })],
    ["a missing user id", () => ({ role: "reviewer" })],
    ["an empty user id", () => ({ userId: "", role: "reviewer" })],
    ["a non-string user id", () => ({ userId: 42, role: "reviewer" })],
    ["an unexpected field", (userId: string) => ({ userId, role: "reviewer", from: "user" })],
    ["no object at all", () => "reviewer"],
  ])("rejects %s as bad input, and changes nothing", async (_label, shape) => {
    const admin = await newUser(db, "admin");
    const target = await newUser(db, "user");
    expect(await codeOf(change(admin, shape(target.id)))).toBe("bad_request:input");
    expect(await stateOf(target.id)).toEqual({ role: "user", audit: [] });
  });
});
