import "server-only";
import type { DbClient } from "./db-types";
import { lockUntilTransactionEnds } from "./sql/advisory-lock";
import { engineTransaction } from "./sql/transaction-options";

// The MCP calls waiting for answers, on every instance sharing the database (ADR 0072): one row
// per waiting call, so a token's waiting limit counts the calls of all instances, not only the
// one a POST happened to reach. Each row has a lease its instance renews for all of its calls in
// one statement; the rows of an instance that stopped without removing them lapse with the lease.

/** Thrown inside the transaction only to roll it back. */
class OverLimitRollback extends Error {
  constructor(readonly waiting: number) {
    super("over the waiting limit");
  }
}

/**
 * Records a waiting call unless its token would then have more than `limit` calls with a live
 * lease. The row is written first and the count taken after it, rolled back when over: SQLite
 * orders two such writes by itself (the first statement takes the single write lock until
 * commit), and on PostgreSQL each first takes a transaction-scoped advisory lock on its token,
 * so the count (read committed) sees every call committed before it. The token's lapsed rows
 * are cleared on the way.
 */
export async function takeMcpWaitingSlot({
  db,
  id,
  tokenId,
  instanceId,
  leaseUntil,
  limit,
  now = new Date(),
}: {
  db: DbClient;
  /** The call's id; `releaseMcpWaitingSlot` takes it back. */
  id: string;
  tokenId: string;
  instanceId: string;
  leaseUntil: Date;
  limit: number;
  now?: Date;
}): Promise<{ status: "taken" } | { status: "full"; waiting: number }> {
  try {
    return await db.$transaction(async (tx) => {
      await lockUntilTransactionEnds(tx, `mcp-waiting:${tokenId}`);
      await tx.mcpWaitingCall.create({ data: { id, tokenId, instanceId, leaseUntil } });
      await tx.mcpWaitingCall.deleteMany({ where: { tokenId, leaseUntil: { lt: now } } });
      const waiting = await tx.mcpWaitingCall.count({ where: { tokenId, leaseUntil: { gte: now } } });
      if (waiting > limit) throw new OverLimitRollback(waiting - 1);
      return { status: "taken" as const };
    }, engineTransaction);
  } catch (error) {
    if (error instanceof OverLimitRollback) return { status: "full", waiting: error.waiting };
    throw error;
  }
}

export async function releaseMcpWaitingSlot({ db, id }: { db: DbClient; id: string }): Promise<void> {
  await db.mcpWaitingCall.deleteMany({ where: { id } });
}

/** Extends the lease of every call waiting on one instance. */
export async function renewMcpWaitingSlots({
  db,
  instanceId,
  leaseUntil,
}: {
  db: DbClient;
  instanceId: string;
  leaseUntil: Date;
}): Promise<void> {
  await db.mcpWaitingCall.updateMany({ where: { instanceId }, data: { leaseUntil } });
}

/** How many of the token's calls wait on any instance. */
export async function countMcpWaitingCalls({
  db,
  tokenId,
  now = new Date(),
}: {
  db: DbClient;
  tokenId: string;
  now?: Date;
}): Promise<number> {
  return db.mcpWaitingCall.count({ where: { tokenId, leaseUntil: { gte: now } } });
}
