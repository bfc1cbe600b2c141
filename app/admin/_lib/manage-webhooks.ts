import { randomUUID } from "node:crypto";
import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { DbClient } from "@/lib/db/db-types";
import { replayWebhookDeliveryById } from "@/lib/db/webhook-deliveries";
import {
  createWebhookEndpoint,
  deleteWebhookEndpointById,
  sendWebhookTestEventById,
  setWebhookEndpointDisabledById,
  webhookEndpointExistsById,
} from "@/lib/db/webhook-endpoints";
import { WEBHOOK_EVENT_TYPES } from "@/lib/domain/webhooks";
import { AppError } from "@/lib/errors";
import { outboundUrlProblem } from "@/lib/http/outbound-address";
import { sealWebhookSecret } from "@/lib/notify/webhook-secret";
import { generateWebhookSecret } from "@/lib/notify/webhook-signature";
import type { SecretKeys } from "@/lib/oauth/secret-keys";

export interface WebhookDeps {
  db: DbClient;
  keys: () => Pick<SecretKeys, "encryption">;
  /** Whether endpoints on this machine or a private network are allowed (ADR 0056). */
  allowPrivate: boolean;
}

const endpointInput = z
  .object({
    url: z.string().trim().min(1, "Enter the endpoint's URL.").max(2000),
    description: z.string().trim().max(200).default(""),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1, "Choose at least one event.")
      .max(WEBHOOK_EVENT_TYPES.length),
  })
  .strict();

/**
 * An admin registers an endpoint. Its signing secret is made here and returned this once; what
 * is stored is sealed, and no page ever reads it back.
 */
export const addWebhookEndpoint = defineAction(
  { role: "admin", input: endpointInput },
  async ({ actor, input }, deps: WebhookDeps): Promise<{ id: string; secret: string }> => {
    const problem = outboundUrlProblem(input.url, deps.allowPrivate);
    if (problem)
      throw new AppError("bad_request:input", {
        message: problem,
        issues: [{ path: "/url", message: problem }],
      });
    const id = `whk_${randomUUID().replaceAll("-", "")}`;
    const secret = generateWebhookSecret();
    await createWebhookEndpoint({
      db: deps.db,
      actorId: actor.id,
      endpoint: {
        id,
        url: input.url,
        description: input.description,
        events: [...new Set(input.events)],
        secretEnc: sealWebhookSecret(id, secret, deps.keys()),
      },
    });
    return { id, secret };
  },
);

const toggleInput = z.object({ id: z.string().min(1).max(64), disabled: z.boolean() }).strict();

/** Switches an endpoint off (new events skip it, queued deliveries wait) or back on. */
export const setWebhookEndpointDisabled = defineAction(
  { role: "admin", input: toggleInput },
  async ({ actor, input: { id, disabled } }, { db }: Pick<WebhookDeps, "db">) => {
    const changed = await setWebhookEndpointDisabledById({ db, id, disabled, actorId: actor.id });
    if (!changed && !(await webhookEndpointExistsById({ db, id }))) throw new AppError("not_found:webhook");
    return { id, disabled, changed };
  },
);

const idInput = z.object({ id: z.string().min(1).max(64) }).strict();

export const removeWebhookEndpoint = defineAction(
  { role: "admin", input: idInput },
  async ({ actor, input: { id } }, { db }: Pick<WebhookDeps, "db">) => {
    if (!(await deleteWebhookEndpointById({ db, id, actorId: actor.id })))
      throw new AppError("not_found:webhook");
    return { id };
  },
);

/** Sends a delivered or failed delivery again: the same message id and body, signed anew. */
export const replayWebhookDelivery = defineAction(
  { role: "admin", input: idInput },
  async ({ actor, input: { id } }, { db }: Pick<WebhookDeps, "db">) => {
    const replay = await replayWebhookDeliveryById({ db, id, actorId: actor.id });
    if (replay.outcome === "not_found") throw new AppError("not_found:webhook_delivery");
    if (replay.outcome === "already_pending") throw new AppError("conflict:webhook_delivery_pending");
    return { id };
  },
);

/**
 * Sends a test event to one endpoint through the outbox: signed, retried and listed among the
 * deliveries like any other, so an admin sees whether the receiver accepts it.
 */
export const sendWebhookTestEvent = defineAction(
  { role: "admin", input: idInput },
  async ({ actor, input: { id } }, { db }: Pick<WebhookDeps, "db">) => {
    const sent = await sendWebhookTestEventById({ db, id, actorId: actor.id });
    if (!sent) throw new AppError("not_found:webhook");
    return { id, messageId: sent.messageId };
  },
);
