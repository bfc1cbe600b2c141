import { randomUUID } from "node:crypto";
import type { DbClient } from "@/lib/db/db-types";
import type { Actor } from "@/lib/domain/roles";

/** A thread owner, a reviewer who answers approvals, and `threads` fresh threads of the owner. */
export async function seedBenchPeople({
  db,
  threads,
}: {
  db: DbClient;
  threads: number;
}): Promise<{ owner: Actor; reviewer: Actor; threadIds: string[] }> {
  const tag = randomUUID().slice(0, 8);
  const owner = await db.user.create({ data: { role: "user", email: `owner-${tag}@bench.test` } });
  const reviewer = await db.user.create({ data: { role: "reviewer", email: `reviewer-${tag}@bench.test` } });
  const threadIds: string[] = [];
  // A fresh thread per cycle: every run then starts from the same one-message history.
  for (let done = 0; done < threads; done += 500) {
    const batch = Array.from({ length: Math.min(500, threads - done) }, (_, i) => ({
      userId: owner.id,
      title: `bench ${done + i}`,
    }));
    const rows = await db.thread.createManyAndReturn({ data: batch, select: { id: true } });
    threadIds.push(...rows.map((row) => row.id));
  }
  return {
    owner: { id: owner.id, role: "user" },
    reviewer: { id: reviewer.id, role: "reviewer" },
    threadIds,
  };
}
