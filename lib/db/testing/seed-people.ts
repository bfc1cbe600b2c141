import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/domain/roles";
import { createRun } from "../create-run";
import type { DbClient } from "../db-types";

export interface People {
  owner: Actor;
  stranger: Actor;
  reviewer: Actor;
  admin: Actor;
}

/** Users of every role and one thread owned by `owner`. */
export async function seedPeople(db: DbClient): Promise<People & { threadId: string }> {
  const make = async (role: Actor["role"]) => {
    const user = await db.user.create({ data: { role, email: `${role}-${randomUUID()}@example.test` } });
    return { id: user.id, role };
  };
  const owner = await make("user");
  const people = {
    owner,
    stranger: await make("user"),
    reviewer: await make("reviewer"),
    admin: await make("admin"),
  };
  const thread = await db.thread.create({ data: { userId: owner.id, title: "test" } });
  return { ...people, threadId: thread.id };
}

/** A fresh thread with a run that has started and is held by `leaseOwner`, nobody driving it. */
export async function createHeldRun(db: DbClient, leaseOwner: string) {
  const { owner, threadId } = await seedPeople(db);
  const created = await createRun({
    db,
    threadId,
    userId: owner.id,
    model: "test",
    content: "hello",
    leaseOwner,
    leaseExpiresAt: new Date(Date.now() + 60_000),
  });
  if (created.status !== "created") throw new Error(`the thread is ${created.status}`);
  return { threadId, runId: created.runId };
}
