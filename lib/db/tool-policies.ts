import "server-only";
import { isToolPolicy, type ToolPolicy } from "@/lib/domain/tool-policy";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { engineTransaction } from "./sql/transaction-options";
import { isUniqueViolation } from "./sql/unique-violation";

export async function listToolPolicies({ db }: { db: DbClient }): Promise<Map<string, ToolPolicy>> {
  const rows = await db.toolPolicy.findMany({ select: { toolName: true, policy: true } });
  const policies = new Map<string, ToolPolicy>();
  for (const row of rows) if (isToolPolicy(row.policy)) policies.set(row.toolName, row.policy);
  return policies;
}

export async function getToolPolicyByName({
  db,
  toolName,
}: {
  db: DbClient;
  toolName: string;
}): Promise<ToolPolicy | undefined> {
  const row = await db.toolPolicy.findUnique({ where: { toolName }, select: { policy: true } });
  return row && isToolPolicy(row.policy) ? row.policy : undefined;
}

export type PolicyChange =
  | { outcome: "changed"; from: ToolPolicy | null; to: ToolPolicy | null }
  | { outcome: "unchanged" }
  /** Someone else changed this tool's policy between our read and our write. */
  | { outcome: "stale" };

/**
 * Sets an admin's policy for a tool (`null` returns it to its default) and records who did it,
 * old → new, in the same transaction. The write is conditional on the row we read, so two
 * admins changing one tool at once cannot both succeed and the audit's "from" is always true.
 * `defaultPolicy` is stored in the audit entry only, so the log says what "default" meant then.
 */
export async function setToolPolicyByName({
  db,
  toolName,
  policy,
  defaultPolicy,
  actorId,
}: {
  db: DbClient;
  toolName: string;
  policy: ToolPolicy | null;
  defaultPolicy: ToolPolicy;
  actorId: string;
}): Promise<PolicyChange> {
  const current = await getToolPolicyByName({ db, toolName });
  const from = current ?? null;
  if (from === policy) return { outcome: "unchanged" };
  try {
    return await db.$transaction(async (tx) => {
      let written: number;
      if (from === null) {
        await tx.toolPolicy.create({ data: { toolName, policy: policy!, updatedById: actorId } });
        written = 1;
      } else if (policy === null) {
        written = (await tx.toolPolicy.deleteMany({ where: { toolName, policy: from } })).count;
      } else {
        written = (
          await tx.toolPolicy.updateMany({
            where: { toolName, policy: from },
            data: { policy, updatedById: actorId },
          })
        ).count;
      }
      if (written !== 1) return { outcome: "stale" as const };
      await recordAuditEntry({
        tx,
        actorId,
        action: "tool.policy_changed",
        targetType: "tool",
        targetId: toolName,
        detail: { from: from ?? "default", to: policy ?? "default", defaultPolicy },
      });
      return { outcome: "changed" as const, from, to: policy };
    }, engineTransaction);
  } catch (error) {
    // Another admin created the row first.
    if (isUniqueViolation(error)) return { outcome: "stale" };
    throw error;
  }
}

export interface ThreadToolAllowance {
  toolName: string;
  grantedById: string;
  createdAt: Date;
}

export async function listThreadToolAllowances({
  db,
  threadId,
}: {
  db: DbClient;
  threadId: string;
}): Promise<ThreadToolAllowance[]> {
  return db.threadToolAllowance.findMany({
    where: { threadId },
    select: { toolName: true, grantedById: true, createdAt: true },
    orderBy: [{ createdAt: "asc" }, { toolName: "asc" }],
  });
}

export async function hasThreadToolAllowance({
  db,
  threadId,
  toolName,
}: {
  db: DbClient;
  threadId: string;
  toolName: string;
}): Promise<boolean> {
  const row = await db.threadToolAllowance.findUnique({
    where: { threadId_toolName: { threadId, toolName } },
    select: { toolName: true },
  });
  return row !== null;
}

/** The caller has checked that `actorId` owns the thread. Returns whether it was newly allowed. */
export async function createThreadToolAllowance({
  db,
  threadId,
  toolName,
  actorId,
}: {
  db: DbClient;
  threadId: string;
  toolName: string;
  actorId: string;
}): Promise<boolean> {
  if (await hasThreadToolAllowance({ db, threadId, toolName })) return false;
  try {
    await db.$transaction(async (tx) => {
      await tx.threadToolAllowance.create({ data: { threadId, toolName, grantedById: actorId } });
      await recordAuditEntry({
        tx,
        actorId,
        action: "thread.tool_allowed",
        targetType: "thread",
        targetId: threadId,
        detail: { tool: toolName },
      });
    }, engineTransaction);
    return true;
  } catch (error) {
    // Allowed at the same moment by another call of the same tool.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** The caller has checked that `actorId` owns the thread. Returns whether there was one to revoke. */
export async function deleteThreadToolAllowance({
  db,
  threadId,
  toolName,
  actorId,
}: {
  db: DbClient;
  threadId: string;
  toolName: string;
  actorId: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.threadToolAllowance.deleteMany({ where: { threadId, toolName } });
    if (count === 0) return false;
    await recordAuditEntry({
      tx,
      actorId,
      action: "thread.tool_allowance_revoked",
      targetType: "thread",
      targetId: threadId,
      detail: { tool: toolName },
    });
    return true;
  }, engineTransaction);
}
