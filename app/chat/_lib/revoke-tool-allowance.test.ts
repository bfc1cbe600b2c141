import { describe, expect, it } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newThread, newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import { createThreadToolAllowance, listThreadToolAllowances } from "@/lib/db/tool-policies";
import { revokeToolAllowance } from "./revoke-tool-allowance";

let db: Db;
withTestEngine((started) => ({ db } = started));

describe("revokeToolAllowance", () => {
  it("lets the chat's owner take an allowance back, audited, and refuses everyone else", async () => {
    const owner = await newUser(db, "user");
    const threadId = await newThread(db, owner);
    await createThreadToolAllowance({ db, threadId, toolName: "deploy", actorId: owner.id });

    for (const role of ["user", "reviewer", "admin"] as const) {
      const other = await newUser(db, role);
      expect(
        await codeOf(revokeToolAllowance({ actor: other, input: { threadId, toolName: "deploy" } }, { db })),
      ).toBe("not_found:thread");
    }
    for (const input of [
      { threadId },
      { threadId, toolName: "" },
      { threadId, toolName: "deploy", x: 1 },
      null,
    ]) {
      expect(await codeOf(revokeToolAllowance({ actor: owner, input }, { db }))).toBe("bad_request:input");
    }
    expect(await listThreadToolAllowances({ db, threadId })).toHaveLength(1);

    await expect(
      revokeToolAllowance({ actor: owner, input: { threadId, toolName: "deploy" } }, { db }),
    ).resolves.toEqual({ threadId, toolName: "deploy" });
    expect(await listThreadToolAllowances({ db, threadId })).toEqual([]);
    expect(
      await codeOf(revokeToolAllowance({ actor: owner, input: { threadId, toolName: "deploy" } }, { db })),
    ).toBe("not_found:allowance");
    const audit = await db.auditLog.findMany({
      where: { targetType: "thread", targetId: threadId },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((entry) => [entry.actorId, entry.action, entry.detail])).toEqual([
      [owner.id, "thread.tool_allowed", { tool: "deploy" }],
      [owner.id, "thread.tool_allowance_revoked", { tool: "deploy" }],
    ]);
  });
});
