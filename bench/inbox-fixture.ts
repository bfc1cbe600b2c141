import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "@/lib/auth/demo-accounts";
import { hashPassword } from "@/lib/auth/verify-credentials";
import type { DbClient } from "@/lib/db/db-types";
import { upsertUserByEmail } from "@/lib/db/users";
import type { Actor } from "@/lib/domain/roles";

const REQUESTS_PER_RUN = 10;
const EXTRA_OWNERS = 46;
const BATCH = 2_000;
const DAY_MS = 86_400_000;
const KINDS = ["approval", "input", "question", "authorization"] as const;
// Per run, by run index mod 10: three in ten still wait, the rest were resolved one way or another.
const RUN_OUTCOMES = [
  "open",
  "open",
  "open",
  "answered",
  "answered",
  "answered",
  "answered",
  "answered",
  "expired",
  "cancelled",
] as const;

export interface InboxFixture {
  /** The demo reviewer (rita@example.com), who can also sign in with the demo password. */
  reviewer: Actor;
  /** The demo user alice@example.com, one owner among fifty. */
  user: Actor;
  requests: number;
  /** What the first page's total must say for each of them (open requests they can see). */
  openForReviewer: number;
  openForUser: number;
}

/**
 * `requests` parked requests spread over fifty owners (the four demo accounts among them), a
 * month of history, every kind and status, ten per run and one run per thread. Inserted in
 * batches of plain rows: parking this many through the engine would take the best part of an
 * hour here, and the inbox only reads the rows.
 */
export async function seedInbox({ db, requests }: { db: DbClient; requests: number }): Promise<InboxFixture> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const demo = [];
  for (const account of DEMO_ACCOUNTS) demo.push(await upsertUserByEmail({ db, ...account, passwordHash }));
  const extra = await db.user.createManyAndReturn({
    data: Array.from({ length: EXTRA_OWNERS }, (_, i) => ({
      email: `owner-${i}@bench.test`,
      name: `Owner ${i}`,
    })),
    select: { id: true },
  });
  const owners = [...demo.map((user) => user.id), ...extra.map((user) => user.id)];
  const reviewer = demo.find((user) => user.role === "reviewer")!;
  const user = demo.find((candidate) => candidate.email === "alice@example.com")!;

  if (requests % REQUESTS_PER_RUN !== 0)
    throw new Error(`requests must be a multiple of ${REQUESTS_PER_RUN}`);
  const runCount = requests / REQUESTS_PER_RUN;
  const now = Date.now();
  const start = now - 30 * DAY_MS;
  const step = (30 * DAY_MS) / requests;
  let openForReviewer = 0;
  let openForUser = 0;
  for (let firstRun = 0; firstRun < runCount; firstRun += BATCH / REQUESTS_PER_RUN) {
    const runIndexes = Array.from(
      { length: Math.min(BATCH / REQUESTS_PER_RUN, runCount - firstRun) },
      (_, i) => firstRun + i,
    );
    const threads = await db.thread.createManyAndReturn({
      data: runIndexes.map((r) => ({ userId: owners[r % owners.length]!, title: `Thread ${r}` })),
      select: { id: true, userId: true },
    });
    const runs = await db.run.createManyAndReturn({
      data: threads.map((thread, i) => ({
        threadId: thread.id,
        userId: thread.userId,
        model: "bench",
        ...(RUN_OUTCOMES[runIndexes[i]! % RUN_OUTCOMES.length] === "open"
          ? { status: "pending", openRequests: REQUESTS_PER_RUN }
          : { status: "done" }),
      })),
      select: { id: true, threadId: true, userId: true },
    });
    const rows = runs.flatMap((run, i) => {
      const r = runIndexes[i]!;
      const status = RUN_OUTCOMES[r % RUN_OUTCOMES.length]!;
      return Array.from({ length: REQUESTS_PER_RUN }, (_, j) => {
        const n = r * REQUESTS_PER_RUN + j;
        const kind = KINDS[(r + j) % KINDS.length]!;
        const audience = kind === "approval" ? "reviewers" : "owner";
        const createdAt = new Date(start + n * step);
        // Open requests expire in the future (or never), as the expiry sweep leaves them.
        const expiresAt =
          n % 5 !== 0
            ? null
            : new Date(status === "open" ? now + (1 + (n % 7)) * DAY_MS : createdAt.getTime() + DAY_MS);
        if (status === "open" && (audience === "reviewers" || run.userId === reviewer.id))
          openForReviewer += 1;
        if (status === "open" && run.userId === user.id) openForUser += 1;
        const request = { id: `pnd-bench-${n}`, kind, prompt: `${kind} #${n}: deploy service ${n % 97}?` };
        return {
          requestId: request.id,
          runId: run.id,
          threadId: run.threadId,
          ownerId: run.userId,
          toolCallId: `call-1-${j + 1}`,
          toolName: `${kind}_tool`,
          args: { service: n % 97 },
          kind,
          prompt: request.prompt,
          expiresAt,
          payload: expiresAt ? { ...request, expiresAt: expiresAt.toISOString() } : request,
          audience,
          status,
          createdAt,
          resolvedAt: status === "open" ? null : new Date(createdAt.getTime() + 60_000),
        };
      });
    });
    await db.request.createMany({ data: rows });
  }
  return {
    reviewer: { id: reviewer.id, role: "reviewer" },
    user: { id: user.id, role: "user" },
    requests,
    openForReviewer,
    openForUser,
  };
}
