import { randomUUID } from "node:crypto";
import type { DbClient } from "@/lib/db/db-types";
import { createRun } from "@/lib/db/runs";
import type { Actor } from "../answer-policy";
import { createEngine } from "../create-engine";
import type { Engine, EngineOptions } from "../engine-types";
import { createMemoryEventBus, type EventBus } from "../event-bus";
import { createScriptedClient, createScriptedToolkit, type ExecutionLog } from "./scripted-agent";

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

export function makeTestEngine({
  db,
  log,
  bus = createMemoryEventBus(),
  ...rest
}: { db: DbClient; log: ExecutionLog; bus?: EventBus } & Partial<EngineOptions>): Engine {
  return createEngine({
    db,
    bus,
    instanceId: `test-${randomUUID()}`,
    createClient: createScriptedClient,
    createToolkit: () => createScriptedToolkit({ log }),
    ...rest,
  });
}

export async function readRunState(db: DbClient, runId: string) {
  const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
  const requests = await db.request.findMany({
    where: { runId },
    orderBy: [{ createdAt: "asc" }, { toolCallId: "asc" }],
    include: { answer: true },
  });
  const events = await db.event.findMany({ where: { threadId: run.threadId }, orderBy: { seq: "asc" } });
  const messages = await db.message.findMany({ where: { threadId: run.threadId }, orderBy: { seq: "asc" } });
  return { run, requests, events, messages: messages.map((m) => m.content as never) };
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
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
  if (created.busy) throw new Error("the thread is busy");
  return { threadId, runId: created.runId };
}
