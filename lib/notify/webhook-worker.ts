import { type BackoffPolicy, backoffDelayMs } from "toolnexus/backoff";
import type { DbClient } from "@/lib/db/db-types";
import {
  type ClaimedWebhookDelivery,
  claimWebhookDeliveryById,
  listDueWebhookDeliveryIds,
  recordWebhookAttemptById,
} from "@/lib/db/webhook-deliveries";
import { createOutboundFetch } from "@/lib/http/outbound-fetch";
import { logger } from "@/lib/log/logger";
import { pollPasses } from "./polling-pass";
import { type PostOutcome, postWebhook } from "./post-webhook";
import { pushSigningSecret, signWebhook } from "./webhook-signature";

export interface WebhookWorkerOptions {
  db: DbClient;
  /** This process, as leases name it. */
  instanceId: string;
  /** The endpoint's signing secret, from its sealed form. */
  openSecret: (endpointId: string, sealed: string) => string;
  /** An A2A push config's token, from its sealed form (ADR 0095). */
  openPushToken?: (configRowId: string, sealed: string) => string;
  /** TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE: whether receivers on private addresses are reached (ADR 0056). */
  allowPrivate: boolean;
  /** Waits between failed attempts (ADR 0036). */
  retry?: BackoffPolicy;
  /** Attempts before a delivery is given up as failed (an admin can still replay it). */
  maxAttempts?: number;
  pollMs?: number;
  leaseMs?: number;
  timeoutMs?: number;
  /** How many attempts run at once in this process. */
  batch?: number;
}

export const DEFAULT_WEBHOOK_RETRY: BackoffPolicy = { firstMs: 10_000, maxMs: 3_600_000, jitter: [0.8, 1.2] };

export interface WebhookWorker {
  /** One pass: claims what is due now and attempts it; returns how many attempts were made. */
  tick(): Promise<number>;
  start(): void;
  /** Stops polling and waits for the attempts in flight. */
  stop(): Promise<void>;
}

function failureText(outcome: PostOutcome): string {
  return outcome.statusCode === null ? outcome.error : `HTTP ${outcome.statusCode}`;
}

/**
 * The key a delivery is signed with, and what else it carries. An endpoint has its own secret; an
 * A2A push config has its client's token, sent back as A2A asks (`X-A2A-Notification-Token`) and
 * used as the signing key, so the client checks the signature with what it already holds.
 */
function signingOf(
  target: ClaimedWebhookDelivery["target"],
  openSecret: WebhookWorkerOptions["openSecret"],
  openPushToken: WebhookWorkerOptions["openPushToken"],
): { secret: string; extra: Record<string, string> } {
  if (target.kind === "endpoint") return { secret: openSecret(target.id, target.secretEnc), extra: {} };
  if (!openPushToken) throw new Error("this worker cannot open push tokens");
  const token = openPushToken(target.id, target.tokenEnc);
  return { secret: pushSigningSecret(token), extra: { "X-A2A-Notification-Token": token } };
}

/**
 * Sends the webhook outbox. Any number of app processes run one each: every attempt starts with
 * an atomic claim (lib/db/webhook-deliveries.ts), so each delivery is attempted by one process at
 * a time, and one whose process died is picked up again when its lease runs out. That is
 * at-least-once: an attempt whose response was lost is sent again under the same webhook-id,
 * which is how Standard Webhooks receivers recognise a repeat.
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const {
    db,
    instanceId,
    openSecret,
    openPushToken,
    allowPrivate,
    retry = DEFAULT_WEBHOOK_RETRY,
    maxAttempts = 10,
    pollMs = 1_000,
    leaseMs = 60_000,
    timeoutMs = 10_000,
    batch = 4,
  } = options;
  const fetch = createOutboundFetch({ allowPrivate });

  const attempt = async (id: string): Promise<boolean> => {
    const claimed = await claimWebhookDeliveryById({ db, id, owner: instanceId, now: new Date(), leaseMs });
    if (!claimed) return false;
    let outcome: PostOutcome;
    try {
      const { target } = claimed;
      const { secret, extra } = signingOf(target, openSecret, openPushToken);
      const timestamp = Math.floor(Date.now() / 1000);
      outcome = await postWebhook({
        fetch,
        url: target.url,
        body: claimed.body,
        timeoutMs,
        headers: {
          "content-type": "application/json",
          "user-agent": "toolnexus-webhooks",
          "webhook-id": claimed.messageId,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook({ secret, id: claimed.messageId, timestamp, body: claimed.body }),
          ...extra,
        },
      });
    } catch {
      // postWebhook describes its own failures; what else throws (the secret) names nothing to show.
      outcome = { statusCode: null, error: "The attempt failed" };
    }
    const now = new Date();
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    await recordWebhookAttemptById({
      db,
      id,
      owner: instanceId,
      attempts: claimed.attempts,
      now,
      outcome: ok
        ? { status: "delivered", statusCode: outcome.statusCode! }
        : claimed.attempts >= maxAttempts
          ? { status: "failed", statusCode: outcome.statusCode, error: failureText(outcome) }
          : {
              status: "retry",
              statusCode: outcome.statusCode,
              error: failureText(outcome),
              retryAt: new Date(now.getTime() + backoffDelayMs(retry, claimed.attempts - 1)),
            },
    });
    if (!ok) {
      logger.warn(
        {
          deliveryId: id,
          webhookId: claimed.messageId,
          attempts: claimed.attempts,
          status: outcome.statusCode,
        },
        "webhook attempt failed",
      );
    }
    return true;
  };

  const tick = async (): Promise<number> => {
    const due = await listDueWebhookDeliveryIds({ db, now: new Date(), limit: batch * 4 });
    let made = 0;
    for (let i = 0; i < due.length; i += batch) {
      const results = await Promise.all(due.slice(i, i + batch).map(attempt));
      made += results.filter(Boolean).length;
    }
    return made;
  };

  const polling = pollPasses({ pass: tick, pollMs, failure: "webhook delivery pass failed" });
  return { tick, start: polling.start, stop: polling.stop };
}
