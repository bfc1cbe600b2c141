import "server-only";
import {
  SETTING_CHANGE_ACTIONS,
  SETTING_CHANGE_KINDS,
  type SettingChangeKind,
  type SettingChangeRow,
  settingChangeKindOf,
} from "@/lib/domain/setting-changes";
import type { DbClient } from "./db-types";
import { newestFirstPage } from "./newest-first-page";

export interface SettingChangeQuery {
  kind?: SettingChangeKind;
  /** Changes at or after this instant. */
  from?: Date;
  /** Changes before this instant. */
  before?: Date;
  page: number;
  pageSize: number;
}

/**
 * One page of admins' setting changes (policies, rules, groups, built-ins), newest first, from
 * the audit log they were written to with each change. `(action, createdAt)` is indexed.
 */
export async function listSettingChanges({
  db,
  query,
}: {
  db: DbClient;
  query: SettingChangeQuery;
}): Promise<{ rows: SettingChangeRow[]; total: number }> {
  const kinds = query.kind ? [query.kind] : SETTING_CHANGE_KINDS;
  const where = {
    action: { in: kinds.flatMap((kind) => SETTING_CHANGE_ACTIONS[kind]) },
    ...(query.from || query.before
      ? {
          createdAt: {
            ...(query.from ? { gte: query.from } : {}),
            ...(query.before ? { lt: query.before } : {}),
          },
        }
      : {}),
  };
  const [found, total] = await Promise.all([
    db.auditLog.findMany({
      where,
      ...newestFirstPage(query.page, query.pageSize),
      select: { id: true, actorId: true, action: true, targetId: true, detail: true, createdAt: true },
    }),
    db.auditLog.count({ where }),
  ]);
  const actorIds = [...new Set(found.flatMap((row) => (row.actorId ? [row.actorId] : [])))];
  const people = actorIds.length
    ? await db.user.findMany({
        where: { id: { in: actorIds } },
        select: { id: true, name: true, email: true },
      })
    : [];
  const nameOf = new Map(people.map((person) => [person.id, person.name ?? person.email ?? person.id]));
  return {
    total,
    rows: found.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      actor: row.actorId ? { id: row.actorId, name: nameOf.get(row.actorId) ?? "a removed user" } : null,
      kind: settingChangeKindOf(row.action) ?? "policy",
      action: row.action,
      targetId: row.targetId,
      detail: (row.detail ?? {}) as Record<string, unknown>,
    })),
  };
}
