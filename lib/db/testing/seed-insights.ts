import "server-only";
import { randomBytes } from "node:crypto";
import type { DbClient } from "../db-types";
import { getDbProvider } from "../sql/db-provider";

const DAY_MS = 86_400_000;
const GROUPS = ["sre", "ops", "finance", "legal"];
const TOOLS = ["deploy", "send_email", "refund", "delete_user", "rotate_key"];

/**
 * `answered` answered requests spread evenly over the 90 days before `now`, five tools, four
 * groups and the any-reviewer pool, each answered 1 to 240 minutes after it was asked (one in
 * five declined); plus one open and one expired request per hundred answered. Inserted by the
 * database itself from a generated series, as seedParkedRuns does: through the client a million
 * rows take many minutes.
 */
export async function seedInsights({ db, answered, now }: { db: DbClient; answered: number; now: number }) {
  if (answered < 1) throw new Error("seedInsights needs answered >= 1");
  const sqlite = getDbProvider({ db }) === "sqlite";
  const tag = randomBytes(4).toString("hex");
  const owner = await db.user.create({ data: { email: `insights-${tag}@bench.test` } });
  const thread = await db.thread.create({ data: { userId: owner.id, kind: "request" } });
  const start = now - 90 * DAY_MS;
  const step = Math.floor((90 * DAY_MS) / answered);
  const series = (count: number, body: string) =>
    sqlite
      ? `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ${count}) ${body} FROM s`
      : `${body} FROM generate_series(0::bigint, ${count - 1}) AS s(i)`;
  // A DateTime as each database keeps Prisma's: ISO text on SQLite, timestamp(3) in UTC on PostgreSQL.
  const time = (ms: string) =>
    sqlite
      ? `strftime('%Y-%m-%dT%H:%M:%f+00:00', (${ms}) / 1000.0, 'unixepoch')`
      : `(timestamp '1970-01-01' + (${ms}) * interval '1 millisecond')`;
  const json = sqlite ? "json_object()" : "'{}'::jsonb";
  const text = (values: string[], index: string) =>
    `CASE ${values.map((value, at) => `WHEN (${index}) % ${values.length} = ${at} THEN '${value}'`).join(" ")} END`;
  // Request n: asked at start + n·step, answered `minutes` later.
  const asked = (n: string) => `${start} + (${n}) * ${step}`;
  const minutes = (n: string) => `(1 + ((${n}) * 7919) % 240)`;
  const requests = (status: string, count: number, n: string, extra: string, extraValues: string) =>
    db.$executeRawUnsafe(
      series(
        count,
        `INSERT INTO "Request" ("id", "requestId", "threadId", "ownerId", "toolCallId", "toolName", "args", ` +
          `"kind", "prompt", "payload", "audience", "audienceGroup", "status", "createdAt", "updatedAt"${extra}) ` +
          `SELECT 'iq-${status}-${tag}-' || i, 'pnd-' || i, '${thread.id}', '${owner.id}', 'call-' || i, ` +
          `${text(TOOLS, n)}, ${json}, 'approval', 'Approve #' || i || '?', ${json}, ` +
          `CASE WHEN (${n}) % 5 = 0 THEN 'reviewers' ELSE 'group' END, ` +
          `CASE WHEN (${n}) % 5 = 0 THEN NULL ELSE ${text(GROUPS, n)} END, '${status}', ` +
          `${time(asked(n))}, ${time(asked(n))}${extraValues}`,
      ),
    );
  await requests(
    "answered",
    answered,
    "i",
    `, "resolvedAt"`,
    `, ${time(`${asked("i")} + ${minutes("i")} * 60000`)}`,
  );
  await db.$executeRawUnsafe(
    series(
      answered,
      `INSERT INTO "Answer" ("id", "requestRowId", "ok", "toolName", "createdAt") ` +
        `SELECT 'ia-${tag}-' || i, 'iq-answered-${tag}-' || i, i % 5 <> 1, ` +
        `${text(TOOLS, "i")}, ${time(`${asked("i")} + ${minutes("i")} * 60000`)}`,
    ),
  );
  const others = Math.ceil(answered / 100);
  await requests("open", others, "i * 100", "", "");
  await requests(
    "expired",
    others,
    "i * 100",
    `, "expiresAt"`,
    `, ${time(`${asked("i * 100")} + ${DAY_MS}`)}`,
  );
}
