import "server-only";
import { randomBytes } from "node:crypto";
import type { DbClient } from "../db-types";
import { getDbProvider } from "../sql/db-provider";

/**
 * `count` parked runs, each waiting on one open request, and `ready` more whose only request is
 * answered already, as a process that died before continuing them leaves them; one thread per
 * run, all owned by one new user. Inserted by the database itself from a generated series: going
 * through the client row by row would take minutes for a million runs.
 */
export async function seedParkedRuns({
  db,
  count,
  ready = 0,
}: {
  db: DbClient;
  count: number;
  ready?: number;
}): Promise<{ userId: string; waitingRunId: string; waitingRequestId: string; readyRunIds: string[] }> {
  if (count < 1) throw new Error("seedParkedRuns needs count >= 1");
  const sqlite = getDbProvider({ db }) === "sqlite";
  const tag = randomBytes(4).toString("hex");
  const user = await db.user.create({ data: { email: `parked-${tag}@bench.test` } });
  const total = count + ready;
  const insert = (table: string, columns: string, select: string) =>
    sqlite
      ? `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ${total}) ` +
        `INSERT INTO "${table}" (${columns}) SELECT ${select} FROM s`
      : `INSERT INTO "${table}" (${columns}) SELECT ${select} FROM generate_series(0, ${total - 1}) AS s(i)`;
  const now = new Date();
  const id = (prefix: string) => `'${prefix}-${tag}-' || i`;
  const waiting = `i < ${count}`;
  const json = sqlite ? "json_object" : "jsonb_build_object";
  // Each statement's parameters in the order they appear (SQLite binds `?` by position).
  const run = (table: string, columns: string, select: (param: (value: unknown) => string) => string) => {
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      if (sqlite) return "?";
      return value instanceof Date ? `$${params.length}::timestamp(3)` : `$${params.length}`;
    };
    return db.$executeRawUnsafe(insert(table, columns, select(param)), ...params);
  };
  await run(
    "Thread",
    `"id", "userId", "title", "createdAt", "updatedAt"`,
    (p) => `${id("pt")}, ${p(user.id)}, 'Parked', ${p(now)}, ${p(now)}`,
  );
  await run(
    "Run",
    `"id", "threadId", "userId", "status", "model", "openRequests", "createdAt", "updatedAt"`,
    (p) =>
      `${id("pr")}, ${id("pt")}, ${p(user.id)}, 'pending', 'parked', ` +
      `CASE WHEN ${waiting} THEN 1 ELSE 0 END, ${p(now)}, ${p(now)}`,
  );
  await run(
    "Request",
    `"id", "requestId", "runId", "threadId", "ownerId", "toolCallId", "toolName", "args", "kind", ` +
      `"prompt", "payload", "status", "createdAt", "updatedAt", "resolvedAt"`,
    (p) =>
      `${id("pq")}, 'ask-' || i, ${id("pr")}, ${id("pt")}, ${p(user.id)}, 'call-1', 'ask', ${json}(), ` +
      `'question', 'Go on?', ${json}('id', 'ask-' || i, 'kind', 'question', 'prompt', 'Go on?'), ` +
      `CASE WHEN ${waiting} THEN 'open' ELSE 'answered' END, ${p(now)}, ${p(now)}, ` +
      `CASE WHEN ${waiting} THEN NULL ELSE ${p(now)} END`,
  );
  return {
    userId: user.id,
    waitingRunId: `pr-${tag}-0`,
    waitingRequestId: `pq-${tag}-0`,
    readyRunIds: Array.from({ length: ready }, (_, i) => `pr-${tag}-${count + i}`),
  };
}
