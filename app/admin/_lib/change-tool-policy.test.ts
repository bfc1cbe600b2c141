import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { createAppMcpPool } from "@/lib/agent/mcp/app-mcp-pool";
import type { McpPool } from "@/lib/agent/mcp/mcp-pool";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import { changeToolPolicy } from "./change-tool-policy";

let db: Db;
withTestEngine((started) => ({ db } = started));

// The project's demo ticket tracker, started over stdio as the app's config file would.
let mcp: McpPool;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "toolnexus-policy-"));
  const configFile = path.join(dir, "mcp.json");
  const server = path.resolve(import.meta.dirname, "../../../scripts/demo-mcp-server.ts");
  const state = path.join(dir, "tickets.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        tickets: { command: process.execPath, args: ["--import", "tsx", server, "--state", state] },
      },
    }),
  );
  mcp = createAppMcpPool({
    db,
    keys: () => ({ encryption: randomBytes(32), state: randomBytes(32) }),
    configFile,
  });
});
afterAll(async () => {
  await mcp?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function stateOf(toolName: string) {
  const row = await db.toolPolicy.findUnique({ where: { toolName }, select: { policy: true } });
  const audit = await db.auditLog.findMany({
    where: { targetType: "tool", targetId: toolName },
    orderBy: { createdAt: "asc" },
    select: { actorId: true, action: true, detail: true },
  });
  return { policy: row?.policy ?? null, audit };
}

function change(actor: SessionUser, input: unknown) {
  return changeToolPolicy({ actor, input }, { db, mcp });
}

describe("changeToolPolicy", () => {
  it("sets a tool's policy and back to its default, auditing who changed what from what to what", async () => {
    const admin = await newUser(db, "admin");
    await expect(change(admin, { toolName: "deploy", policy: "owner" })).resolves.toEqual({
      toolName: "deploy",
      policy: "owner",
      isDefault: false,
      changed: true,
    });
    await expect(change(admin, { toolName: "deploy", policy: "blocked" })).resolves.toMatchObject({
      policy: "blocked",
      changed: true,
    });
    await expect(change(admin, { toolName: "deploy", policy: "blocked" })).resolves.toMatchObject({
      changed: false,
    });
    await expect(change(admin, { toolName: "deploy", policy: "default" })).resolves.toEqual({
      toolName: "deploy",
      policy: "reviewer",
      isDefault: true,
      changed: true,
    });
    const entry = (from: string, to: string) => ({
      actorId: admin.id,
      action: "tool.policy_changed",
      detail: { from, to, defaultPolicy: "reviewer" },
    });
    expect(await stateOf("deploy")).toEqual({
      policy: null,
      audit: [entry("default", "owner"), entry("owner", "blocked"), entry("blocked", "default")],
    });
  });

  it("sets an MCP tool's policy, whose default comes from the server's annotations", async () => {
    const admin = await newUser(db, "admin");
    await expect(
      change(admin, { toolName: "tickets_delete_ticket", policy: "blocked" }),
    ).resolves.toMatchObject({
      policy: "blocked",
      changed: true,
    });
    expect((await stateOf("tickets_delete_ticket")).audit.at(-1)?.detail).toEqual({
      from: "default",
      to: "blocked",
      defaultPolicy: "reviewer",
    });
    await expect(change(admin, { toolName: "tickets_list_tickets", policy: "default" })).resolves.toEqual({
      toolName: "tickets_list_tickets",
      policy: "free",
      isDefault: true,
      changed: false,
    });
  });

  it("lets a destructive or open-world tool run freely only once the admin confirms it", async () => {
    const admin = await newUser(db, "admin");
    const before = await stateOf("tickets_delete_ticket");
    expect(await codeOf(change(admin, { toolName: "tickets_delete_ticket", policy: "free" }))).toBe(
      "invalid:unconfirmed_free",
    );
    expect(
      await codeOf(change(admin, { toolName: "tickets_delete_ticket", policy: "free", confirmed: false })),
    ).toBe("invalid:unconfirmed_free");
    expect(await stateOf("tickets_delete_ticket")).toEqual(before);
    await expect(
      change(admin, { toolName: "tickets_delete_ticket", policy: "free", confirmed: true }),
    ).resolves.toMatchObject({ policy: "free", changed: true });
    expect((await stateOf("tickets_delete_ticket")).audit.at(-1)?.detail).toMatchObject({ to: "free" });
    // A read-only tool needs no confirmation, and neither does asking for approval.
    await expect(change(admin, { toolName: "tickets_list_tickets", policy: "free" })).resolves.toMatchObject({
      policy: "free",
    });
    await expect(
      change(admin, { toolName: "tickets_delete_ticket", policy: "reviewer" }),
    ).resolves.toMatchObject({ policy: "reviewer" });
  });

  it("refuses users and reviewers, unknown tools and bad input, changing nothing", async () => {
    const before = await stateOf("refund");
    for (const role of ["user", "reviewer"] as const) {
      const actor = await newUser(db, role);
      expect(await codeOf(change(actor, { toolName: "refund", policy: "free" }))).toBe("forbidden:role");
    }
    const admin = await newUser(db, "admin");
    expect(await codeOf(change(admin, { toolName: "no_such_tool", policy: "free" }))).toBe("not_found:tool");
    for (const input of [
      { toolName: "refund", policy: "sometimes" },
      { toolName: "", policy: "free" },
      { toolName: "refund" },
      { toolName: "refund", policy: "free", extra: 1 },
      "refund",
    ]) {
      expect(await codeOf(change(admin, input))).toBe("bad_request:input");
    }
    expect(await stateOf("refund")).toEqual(before);
  });
});
