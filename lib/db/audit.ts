import "server-only";
import type { DbTx } from "./db-types";
import {
  hotSqlOf,
  type SqlStatement,
  type SqlValue,
  sql,
  sqlColumns,
  sqlInsertRows,
  sqlJson,
  sqlTable,
  sqlTime,
} from "./sql/hot-sql";
import { newRowId } from "./sql/row-id";

export type AuditAction =
  | "request.created"
  | "request.answered"
  | "request.expired"
  | "request.cancelled"
  | "request.voted"
  | "request.vote_late"
  | "request.vote_voided"
  | "request.escalation_fired"
  | "run.cancelled"
  | "user.role_changed"
  | "user.sessions_revoked"
  | "absence.set"
  | "absence.ended"
  | "mcp_server.added"
  | "mcp_server.disabled"
  | "mcp_server.enabled"
  | "mcp_server.removed"
  | "tool.policy_changed"
  | "tool.builtin_enabled"
  | "tool.builtin_disabled"
  | "tool.rules_changed"
  | "tool.rule_failed"
  | "approver_group.created"
  | "approver_group.renamed"
  | "approver_group.deleted"
  | "approver_group.member_added"
  | "approver_group.member_removed"
  | "thread.tool_allowed"
  | "thread.tool_allowance_revoked"
  | "webhook.added"
  | "webhook.disabled"
  | "webhook.enabled"
  | "webhook.removed"
  | "webhook.delivery_replayed"
  | "webhook.test_sent"
  | "api_token.created"
  | "api_token.revoked"
  | "api_token.tool_allowed"
  | "api_token.tool_allowed_by_grant"
  | "api_token.tool_allowance_revoked";

type AuditTarget =
  | "request"
  | "run"
  | "user"
  | "mcp_server"
  | "tool"
  | "approver_group"
  | "thread"
  | "webhook"
  | "webhook_delivery"
  | "api_token";

export interface AuditEntry {
  actorId: string | null;
  action: AuditAction;
  targetType: AuditTarget;
  targetId: string;
  detail?: Record<string, unknown>;
}

/** The audit table's columns in the order of `auditEntryValues`. */
export const auditEntryColumns = sqlColumns([
  "id",
  "actorId",
  "action",
  "targetType",
  "targetId",
  "detail",
  "createdAt",
]);

/** One audit row's values, for a statement that writes it beside another change. */
export function auditEntryValues({ actorId, action, targetType, targetId, detail }: AuditEntry): SqlValue[] {
  return [
    newRowId(),
    actorId,
    action,
    targetType,
    targetId,
    sqlJson(detail ? JSON.stringify(detail) : null),
    sqlTime(new Date()),
  ];
}

/** The audit table's one INSERT: `entries`, after the CTE `after` if given (see `sqlInsertRows`). */
export function insertAuditEntriesSql(entries: readonly AuditEntry[], after?: SqlStatement): SqlStatement {
  return sql`INSERT INTO ${sqlTable("AuditLog")} ${sqlInsertRows(auditEntryColumns, entries.map(auditEntryValues), after)}`;
}

/** Written in the same transaction as the change it describes, so the log never disagrees with it. */
export async function recordAuditEntry({ tx, ...entry }: { tx: DbTx } & AuditEntry): Promise<void> {
  await hotSqlOf(tx).execute(insertAuditEntriesSql([entry]));
}
