"use server";

import { serveAction } from "@/app/_lib/serve-action";
import {
  addWebhookEndpoint,
  removeWebhookEndpoint,
  replayWebhookDelivery,
  sendWebhookTestEvent,
  setWebhookEndpointDisabled,
} from "../_lib/manage-webhooks";
import { webhookDeps } from "./webhook-deps";

/** Registers an endpoint; the answer carries its signing secret, the only time it is shown. */
export const addWebhookEndpointAction = serveAction(addWebhookEndpoint, webhookDeps);

export const setWebhookEndpointDisabledAction = serveAction(setWebhookEndpointDisabled);

export const removeWebhookEndpointAction = serveAction(removeWebhookEndpoint);

/** Queues a delivered or failed delivery again, under the same message id. */
export const replayWebhookDeliveryAction = serveAction(replayWebhookDelivery);

/** Queues a signed test event for one endpoint; it shows among the deliveries. */
export const sendWebhookTestEventAction = serveAction(sendWebhookTestEvent);
