import { describe, expect, it } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import { signOutUserEverywhere } from "./sign-out-user-everywhere";

let db: Db;
withTestEngine((started) => ({ db } = started));

async function stateOf(userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  const audit = await db.auditLog.findMany({
    where: { targetType: "user", targetId: userId },
    select: { actorId: true, action: true },
  });
  return { sessionVersion: user?.sessionVersion, audit };
}

describe("signOutUserEverywhere", () => {
  it("raises the user's session version and records which admin did it", async () => {
    const admin = await newUser(db, "admin");
    const user = await newUser(db, "user");
    const before = (await stateOf(user.id)).sessionVersion!;

    await expect(
      signOutUserEverywhere({ actor: admin, input: { userId: user.id } }, { db }),
    ).resolves.toEqual({
      userId: user.id,
    });
    expect(await stateOf(user.id)).toEqual({
      sessionVersion: before + 1,
      audit: [{ actorId: admin.id, action: "user.sessions_revoked" }],
    });
  });

  it.each(["user", "reviewer"] as const)("refuses a %s and changes nothing", async (role) => {
    const actor = await newUser(db, role);
    const target = await newUser(db, "user");
    const before = await stateOf(target.id);
    expect(await codeOf(signOutUserEverywhere({ actor, input: { userId: target.id } }, { db }))).toBe(
      "forbidden:role",
    );
    expect(await stateOf(target.id)).toEqual(before);
  });

  it("refuses bad input and unknown users with typed errors", async () => {
    const admin = await newUser(db, "admin");
    expect(await codeOf(signOutUserEverywhere({ actor: admin, input: { userId: "" } }, { db }))).toBe(
      "bad_request:input",
    );
    expect(
      await codeOf(signOutUserEverywhere({ actor: admin, input: { userId: "x", extra: 1 } }, { db })),
    ).toBe("bad_request:input");
    expect(
      await codeOf(signOutUserEverywhere({ actor: admin, input: { userId: "no-such-user" } }, { db })),
    ).toBe("not_found:user");
    expect(await db.auditLog.count({ where: { action: "user.sessions_revoked", actorId: admin.id } })).toBe(
      0,
    );
  });
});
