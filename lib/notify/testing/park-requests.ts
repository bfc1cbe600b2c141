import { randomUUID } from "node:crypto";
import { createRun } from "@/lib/db/create-run";
import type { DbClient } from "@/lib/db/db-types";
import { parkRun } from "@/lib/db/park-run";
import type { Audience } from "@/lib/domain/events";
import type { Checkpoint } from "@/lib/toolnexus/types";

/**
 * A run of `ownerId` parked the way the engine parks one, on requests of the given audiences:
 * real request rows and the `pending` event in one transaction. Returns the requests' row ids.
 */
export async function parkRequests(
  db: DbClient,
  ownerId: string,
  requests: { audience: Audience; prompt: string; args?: Record<string, unknown>; url?: string }[],
): Promise<string[]> {
  const thread = await db.thread.create({ data: { userId: ownerId, title: "mail test" } });
  const leaseOwner = `park-${randomUUID()}`;
  const created = await createRun({
    db,
    threadId: thread.id,
    userId: ownerId,
    model: "test",
    content: "hello",
    leaseOwner,
    leaseExpiresAt: new Date(Date.now() + 60_000),
  });
  if (created.status !== "created") throw new Error(`the thread is ${created.status}`);
  const checkpoint: Checkpoint = {
    version: 2,
    runId: created.runId,
    model: "test",
    messages: [],
    slots: [],
    toolCalls: [],
    turns: 1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    transcriptDigest: "test",
    digest: "test",
  };
  const events = await parkRun({
    db,
    runId: created.runId,
    threadId: thread.id,
    ownerId,
    leaseOwner,
    checkpoint,
    withMessages: false,
    suspensions: requests.map((request, index) => ({
      request: {
        id: `pnd-${randomUUID()}`,
        kind: "approval",
        prompt: request.prompt,
        ...(request.url ? { url: request.url } : {}),
      },
      toolCallId: `call-${index}`,
      toolName: "deploy",
      args: request.args ?? {},
      audience: request.audience,
    })),
  });
  const pending = events?.find((event) => event.type === "pending");
  if (pending?.type !== "pending") throw new Error("the run did not park");
  return pending.requests.map((view) => view.id);
}
