import type { DbClient } from "@/lib/db/db-types";

const BATCH = 5_000;
const DAY_MS = 86_400_000;
const GROUPS = ["sre", "ops", "finance", "legal"];
const TOOLS = ["deploy", "send_email", "refund", "delete_user", "rotate_key"];

/**
 * `answered` answered requests spread evenly over the last 90 days, five tools, four groups
 * and the any-reviewer pool, each answered 1 to 240 minutes after it was asked (one in five
 * declined); plus one open and one expired request per hundred answered. Plain rows in batches:
 * the page only reads them.
 */
export async function seedInsights({ db, answered, now }: { db: DbClient; answered: number; now: number }) {
  const owner = await db.user.create({ data: { email: "owner@bench.test", name: "Owner" } });
  const start = now - 90 * DAY_MS;
  const step = (90 * DAY_MS) / answered;
  const row = (n: number, status: string, createdAt: Date, extra: object = {}) => ({
    requestId: `pnd-insights-${status}-${n}`,
    ownerId: owner.id,
    toolCallId: `call-${n}`,
    toolName: TOOLS[n % TOOLS.length]!,
    args: {},
    kind: "approval",
    prompt: `Approve #${n}?`,
    payload: {},
    ...(n % 5 === 0
      ? { audience: "reviewers" }
      : { audience: "group", audienceGroup: GROUPS[n % GROUPS.length]! }),
    status,
    createdAt,
    ...extra,
  });
  for (let first = 0; first < answered; first += BATCH) {
    const count = Math.min(BATCH, answered - first);
    const thread = await db.thread.create({ data: { userId: owner.id, kind: "request" } });
    const asked = (n: number) => new Date(start + n * step);
    const minutes = (n: number) => 1 + ((n * 7919) % 240);
    const requests = await db.request.createManyAndReturn({
      data: Array.from({ length: count }, (_, i) => {
        const n = first + i;
        const answeredAt = new Date(asked(n).getTime() + minutes(n) * 60_000);
        return { ...row(n, "answered", asked(n), { resolvedAt: answeredAt }), threadId: thread.id };
      }),
      select: { id: true, toolName: true, createdAt: true, resolvedAt: true },
    });
    await db.answer.createMany({
      data: requests.map((request, i) => ({
        requestRowId: request.id,
        ok: (first + i) % 5 !== 1,
        toolName: request.toolName,
        createdAt: request.resolvedAt!,
      })),
    });
    const others = Array.from({ length: Math.ceil(count / 100) }, (_, i) => first + i * 100);
    await db.request.createMany({
      data: others.flatMap((n) => [
        { ...row(n, "open", asked(n)), threadId: thread.id },
        {
          ...row(n, "expired", asked(n), { expiresAt: new Date(asked(n).getTime() + DAY_MS) }),
          threadId: thread.id,
        },
      ]),
    });
  }
}
