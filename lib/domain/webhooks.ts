import type { ThreadEvent } from "./events";

// What webhooks tell: the event types an endpoint may subscribe to, the body each one sends,
// and which thread events produce them. Pure, so storage can build a message's body inside the
// transaction that appends the event, and the admin pages can list the same names.

export const WEBHOOK_EVENT_TYPES = [
  "request.created",
  "request.answered",
  "request.expired",
  "request.reminded",
  "request.escalated",
  "run.finished",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * The type of the event an admin sends to check an endpoint. Nobody subscribes to it: it goes to
 * the one endpoint asked, through the same outbox, signature and retries as every other event.
 */
export const WEBHOOK_TEST_TYPE = "webhook.test";

/** One occurrence to announce: `eventKey` names it once, however often the log lists it again. */
export interface WebhookOccurrence {
  eventKey: string;
  type: WebhookEventType;
  /** The `data` of the body: plain JSON, never a secret (a request's args and prompt, as the inbox shows them). */
  data: Record<string, unknown>;
}

/** A delivery as the admin page lists it. */
export type WebhookDeliveryView = {
  id: string;
  messageId: string;
  endpointId: string;
  endpointUrl: string;
  type: string;
  attempts: number;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
} & (
  | { status: "pending"; nextAttemptAt: string }
  | { status: "delivered"; deliveredAt: string }
  | { status: "failed" }
);

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  disabled: boolean;
  createdAt: string;
}

/** The webhook occurrences a thread event stands for; most events stand for none. */
export function webhookOccurrencesOf(event: ThreadEvent): WebhookOccurrence[] {
  const about = { threadId: event.threadId, runId: event.runId };
  switch (event.type) {
    case "pending":
      // A run that parks again lists its still-open requests again: the key makes that a no-op.
      return event.requests
        .filter((view) => view.status === "open")
        .map((view) => ({
          eventKey: `request.created:${view.id}`,
          type: "request.created" as const,
          data: {
            id: view.id,
            ...about,
            request: view.request,
            toolName: view.toolName,
            args: view.args,
            audience: view.audience,
            path: `/requests/${view.id}`,
          },
        }));
    case "request_resolved": {
      if (event.status !== "answered" && event.status !== "expired") return [];
      const type = event.status === "answered" ? "request.answered" : "request.expired";
      return [
        {
          eventKey: `${type}:${event.id}`,
          type,
          data: {
            id: event.id,
            ...about,
            status: event.status,
            ok: event.ok,
            ...(event.reason ? { reason: event.reason } : {}),
            ...(event.actorId ? { actorId: event.actorId } : {}),
            ...(event.forUserId ? { forUserId: event.forUserId } : {}),
            path: `/requests/${event.id}`,
          },
        },
      ];
    }
    case "run_finished":
      return event.runId
        ? [
            {
              eventKey: `run.finished:${event.runId}`,
              type: "run.finished",
              data: { ...about, status: event.status, text: event.text },
            },
          ]
        : [];
    default:
      return [];
  }
}
