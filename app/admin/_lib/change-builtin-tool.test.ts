import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { listAgentToolPolicies } from "@/lib/agent/agent-tool-catalog";
import { createAgentToolkit } from "@/lib/agent/create-agent-toolkit";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import { changeBuiltinTool } from "./change-builtin-tool";
import { changeToolPolicy } from "./change-tool-policy";

let db: Db;
withTestEngine((started) => ({ db } = started));

// The workspace is configured as a deployment configures it.
const workspace = mkdtempSync(path.join(tmpdir(), "builtin-switch-"));
beforeAll(() => {
  vi.stubEnv("TOOLNEXUS_WORKSPACE", workspace);
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(workspace, { recursive: true, force: true });
});

const noMcp = { tools: async () => [] };
const change = (actor: SessionUser, input: unknown) => changeBuiltinTool({ actor, input }, { db });

async function stateOf(toolName: string) {
  const row = await db.builtinTool.findUnique({ where: { toolName }, select: { toolName: true } });
  const audit = await db.auditLog.findMany({
    where: { targetType: "tool", targetId: toolName },
    orderBy: { createdAt: "asc" },
    select: { actorId: true, action: true },
  });
  return { enabled: row !== null, audit };
}

async function offered(userId: string): Promise<string[]> {
  const toolkit = await createAgentToolkit({ userId, runId: `run-${userId}`, db, balance: false });
  try {
    return toolkit.tools().map((tool) => tool.name);
  } finally {
    await toolkit.close();
  }
}

describe("changeBuiltinTool", () => {
  it("keeps every built-in off until an admin switches one on, then offers it under a reviewer's approval", async () => {
    const admin = await newUser(db, "admin");
    expect(await offered(admin.id)).not.toContain("bash");

    await expect(change(admin, { toolName: "bash", enabled: true })).resolves.toEqual({
      toolName: "bash",
      enabled: true,
      changed: true,
    });
    expect(await offered(admin.id)).toContain("bash");
    const row = (await listAgentToolPolicies({ db, userId: admin.id, mcpTools: [] })).find(
      (tool) => tool.name === "bash",
    );
    expect(row).toMatchObject({
      source: "builtin",
      policy: "reviewer",
      defaultPolicy: "reviewer",
      isDefault: true,
    });
    // Its policy is the admin's to change like any other tool's.
    await expect(
      changeToolPolicy({ actor: admin, input: { toolName: "bash", policy: "blocked" } }, { db, mcp: noMcp }),
    ).resolves.toMatchObject({ policy: "blocked" });

    await expect(change(admin, { toolName: "bash", enabled: true })).resolves.toMatchObject({
      changed: false,
    });
    await expect(change(admin, { toolName: "bash", enabled: false })).resolves.toMatchObject({
      changed: true,
    });
    expect(await offered(admin.id)).not.toContain("bash");
    expect((await stateOf("bash")).audit.filter((entry) => entry.action.startsWith("tool.builtin"))).toEqual([
      { actorId: admin.id, action: "tool.builtin_enabled" },
      { actorId: admin.id, action: "tool.builtin_disabled" },
    ]);
  });

  it("gives write, edit and apply_patch a reviewer by default too", async () => {
    const admin = await newUser(db, "admin");
    for (const toolName of ["write", "edit", "apply_patch"]) await change(admin, { toolName, enabled: true });
    const rows = await listAgentToolPolicies({ db, userId: admin.id, mcpTools: [] });
    for (const name of ["write", "edit", "apply_patch"]) {
      expect(rows.find((tool) => tool.name === name)).toMatchObject({ policy: "reviewer", isDefault: true });
    }
    for (const toolName of ["write", "edit", "apply_patch"])
      await change(admin, { toolName, enabled: false });
  });

  it("refuses a file tool without a workspace, and switching off works without one", async () => {
    const admin = await newUser(db, "admin");
    vi.stubEnv("TOOLNEXUS_WORKSPACE", "");
    try {
      expect(await codeOf(change(admin, { toolName: "read", enabled: true }))).toBe("invalid:workspace");
      expect(await stateOf("read")).toEqual({ enabled: false, audit: [] });
      for (const enabled of [true, false]) {
        await expect(change(admin, { toolName: "webfetch", enabled })).resolves.toMatchObject({
          changed: true,
        });
      }
    } finally {
      vi.stubEnv("TOOLNEXUS_WORKSPACE", workspace);
    }
  });

  it("refuses users and reviewers, tools it does not switch and bad input, changing nothing", async () => {
    const audited = await db.auditLog.count();
    for (const role of ["user", "reviewer"] as const) {
      const actor = await newUser(db, role);
      expect(await codeOf(change(actor, { toolName: "bash", enabled: true }))).toBe("forbidden:role");
    }
    const admin = await newUser(db, "admin");
    for (const input of [
      { toolName: "question", enabled: true },
      { toolName: "deploy", enabled: true },
      { toolName: "bash", enabled: "yes" },
      { toolName: "bash" },
      { toolName: "bash", enabled: true, extra: 1 },
    ]) {
      expect(await codeOf(change(admin, input))).toBe("bad_request:input");
    }
    expect(await stateOf("bash")).toMatchObject({ enabled: false });
    expect(await db.builtinTool.count()).toBe(0);
    expect(await db.auditLog.count()).toBe(audited);
  });
});
