import { randomUUID } from "node:crypto";
import type { DbClient } from "@/lib/db/db-types";
import { appendEvents } from "@/lib/db/events";
import { engineTransaction } from "@/lib/db/sql/transaction-options";
import { createWebhookEndpoint } from "@/lib/db/webhook-endpoints";
import type { ParkedRequestView } from "@/lib/domain/events";
import type { WebhookEventType } from "@/lib/domain/webhooks";
import { sealWebhookSecret } from "../webhook-secret";
import { generateWebhookSecret } from "../webhook-signature";

export const testKeys = { encryption: Buffer.alloc(32, 9), state: Buffer.alloc(32, 8) };

export async function registerEndpoint(
  db: DbClient,
  url: string,
  actorId: string,
  events: WebhookEventType[] = ["request.created", "request.answered", "request.expired", "run.finished"],
) {
  const id = `whk_${randomUUID().replaceAll("-", "")}`;
  const secret = generateWebhookSecret();
  await createWebhookEndpoint({
    db,
    actorId,
    endpoint: { id, url, description: "test", events, secretEnc: sealWebhookSecret(id, secret, testKeys) },
  });
  return { id, secret };
}

export function requestView(overrides: Partial<ParkedRequestView> = {}): ParkedRequestView {
  const id = overrides.id ?? `req-${randomUUID()}`;
  return {
    id,
    request: { id: `pnd-${id}`, kind: "approval", prompt: "Deploy v1.4 to production?" },
    runId: "run-test",
    toolCallId: "call-1",
    toolName: "deploy",
    args: { version: "v1.4" },
    audience: "reviewers",
    status: "open",
    ...overrides,
  };
}

/** Appends a `pending` event listing `views` to a thread's log, as a run parking does. */
export function appendPending(db: DbClient, threadId: string, views: ParkedRequestView[]) {
  return db.$transaction(
    (tx) => appendEvents({ tx, threadId, runId: null, bodies: [{ type: "pending", requests: views }] }),
    engineTransaction,
  );
}
