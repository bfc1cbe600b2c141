import { describe, expect, it } from "vitest";
import { appErrorCode } from "@/app/_lib/app-error-code";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { apiTokenLimit, authenticateApiToken, hashApiToken } from "@/lib/auth/api-token-auth";
import { listApiTokensByUser } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";
import { createToken, revokeAnyToken, revokeOwnToken } from "./manage-tokens";

let db: Db;
withTestEngine((started) => {
  db = started.db;
});

describe("personal API tokens", () => {
  it("are shown once, stored only as a hash, and never written to the audit log", async () => {
    const owner = await newUser(db, "user");
    const { token, row } = await createToken(
      { actor: owner, input: { name: "deploy bot", scopes: ["requests:write"], expiresInDays: 30 } },
      { db },
    );
    expect(token).toMatch(/^tnx_[A-Za-z0-9_-]{43}$/);
    expect(row).toMatchObject({ name: "deploy bot", scopes: ["requests:write"], revokedAt: null });
    expect(token.startsWith(row.prefix)).toBe(true);
    const stored = await db.apiToken.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored.tokenHash).toBe(hashApiToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(JSON.stringify(await listApiTokensByUser({ db, userId: owner.id }))).not.toContain(token);
    const audit = await db.auditLog.findMany({ where: { targetId: row.id } });
    expect(audit.map((entry) => entry.action)).toEqual(["api_token.created"]);
    expect(JSON.stringify(audit)).not.toContain(token);
    const caller = await authenticateApiToken({ db, authorization: `Bearer ${token}` });
    expect(caller).toMatchObject({ actor: { id: owner.id, role: "user" }, scopes: ["requests:write"] });
    expect(Date.parse(stored.expiresAt!.toISOString()) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
  });

  it("refuse bad input clearly", async () => {
    const owner = await newUser(db, "user");
    const make = (input: unknown) => createToken({ actor: owner, input }, { db });
    expect(await appErrorCode(make({ name: "", scopes: ["requests:read"], expiresInDays: null }))).toBe(
      "bad_request:input",
    );
    expect(await appErrorCode(make({ name: "x", scopes: [], expiresInDays: null }))).toBe(
      "bad_request:input",
    );
    expect(await appErrorCode(make({ name: "x", scopes: ["admin:all"], expiresInDays: null }))).toBe(
      "bad_request:input",
    );
    expect(await appErrorCode(make({ name: "x", scopes: ["requests:read"], expiresInDays: 5 }))).toBe(
      "bad_request:input",
    );
    expect(await db.apiToken.count({ where: { userId: owner.id } })).toBe(0);
  });

  it("stop at 20 active ones a person holds, with a message that says what to do", async () => {
    const owner = await newUser(db, "user");
    const make = () =>
      createToken(
        { actor: owner, input: { name: "ci", scopes: ["requests:write"], expiresInDays: 30 } },
        { db },
      );
    for (let i = 0; i < 20; i++) await make();
    const refused = await make().catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "conflict:token_limit", status: 409 });
    expect((refused as Error).message).toMatch(/already hold 20 active API tokens.*Revoke one/);
    expect(await db.apiToken.count({ where: { userId: owner.id } })).toBe(20);
    // TOOLNEXUS_API_TOKEN_LIMIT sets another ceiling.
    expect(apiTokenLimit({ TOOLNEXUS_API_TOKEN_LIMIT: "25" })).toBe(25);
    expect(apiTokenLimit({ TOOLNEXUS_API_TOKEN_LIMIT: "none" })).toBe(20);
  });

  it("are revoked by their owner or an admin, once, and a revoked token is refused at once", async () => {
    const owner = await newUser(db, "user");
    const other = await newUser(db, "reviewer");
    const admin = await newUser(db, "admin");
    const made = () =>
      createToken(
        { actor: owner, input: { name: "t", scopes: ["requests:read"], expiresInDays: null } },
        { db },
      );
    const first = await made();
    expect(
      await appErrorCode(revokeOwnToken({ actor: other, input: { tokenId: first.row.id } }, { db })),
    ).toBe("not_found:token");
    expect(
      await appErrorCode(revokeAnyToken({ actor: other, input: { tokenId: first.row.id } }, { db })),
    ).toBe("forbidden:role");
    await authenticateApiToken({ db, authorization: `Bearer ${first.token}` });
    await revokeOwnToken({ actor: owner, input: { tokenId: first.row.id } }, { db });
    expect(
      await appErrorCode(revokeOwnToken({ actor: owner, input: { tokenId: first.row.id } }, { db })),
    ).toBe("conflict:token_revoked");
    expect(await appErrorCode(authenticateApiToken({ db, authorization: `Bearer ${first.token}` }))).toBe(
      "unauthorized:token",
    );

    const second = await made();
    await revokeAnyToken({ actor: admin, input: { tokenId: second.row.id } }, { db });
    expect(await appErrorCode(authenticateApiToken({ db, authorization: `Bearer ${second.token}` }))).toBe(
      "unauthorized:token",
    );
    const audit = await db.auditLog.findMany({
      where: { targetId: second.row.id, action: "api_token.revoked" },
    });
    expect(audit.map((entry) => entry.actorId)).toEqual([admin.id]);
    // A token acts with its owner's role as it is now.
    const third = await made();
    await db.user.update({ where: { id: owner.id }, data: { role: "reviewer" } });
    expect((await authenticateApiToken({ db, authorization: `Bearer ${third.token}` })).actor.role).toBe(
      "reviewer",
    );
  });
});
