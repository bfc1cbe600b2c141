import "server-only";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { engineTransaction } from "./sql/transaction-options";
import { isUniqueViolation } from "./sql/unique-violation";

/** The names of the built-in tools an admin has switched on. */
export async function listEnabledBuiltins({ db }: { db: DbClient }): Promise<Set<string>> {
  const rows = await db.builtinTool.findMany({ select: { toolName: true } });
  return new Set(rows.map((row) => row.toolName));
}

export type BuiltinSwitch = { outcome: "changed" } | { outcome: "unchanged" };

/**
 * Switches a built-in tool on or off and records who did it in the same transaction, as a policy
 * change is. The write itself says whether anything changed, so two admins flipping the same
 * switch at once record it once.
 */
export async function setBuiltinEnabled({
  db,
  toolName,
  enabled,
  actorId,
}: {
  db: DbClient;
  toolName: string;
  enabled: boolean;
  actorId: string;
}): Promise<BuiltinSwitch> {
  try {
    return await db.$transaction(async (tx) => {
      const written = enabled
        ? (await tx.builtinTool.createMany({ data: [{ toolName, enabledById: actorId }] })).count
        : (await tx.builtinTool.deleteMany({ where: { toolName } })).count;
      if (written === 0) return { outcome: "unchanged" as const };
      await recordAuditEntry({
        tx,
        actorId,
        action: enabled ? "tool.builtin_enabled" : "tool.builtin_disabled",
        targetType: "tool",
        targetId: toolName,
      });
      return { outcome: "changed" as const };
    }, engineTransaction);
  } catch (error) {
    // Switched on by another admin at the same moment.
    if (isUniqueViolation(error)) return { outcome: "unchanged" };
    throw error;
  }
}
