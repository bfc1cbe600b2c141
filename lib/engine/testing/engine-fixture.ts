import { randomUUID } from "node:crypto";
import type { DbClient } from "@/lib/db/db-types";
import { createEngine } from "../create-engine";
import type { Engine, EngineOptions } from "../engine-types";
import { createMemoryEventBus, type EventBus } from "../event-bus";
import { createScriptedClient, createScriptedToolkit, type ExecutionLog } from "./scripted-agent";

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
