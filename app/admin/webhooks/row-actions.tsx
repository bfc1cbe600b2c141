"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ActionFailure, useRefreshingAction } from "@/components/admin/use-refreshing-action";
import {
  removeWebhookEndpointAction,
  replayWebhookDeliveryAction,
  sendWebhookTestEventAction,
  setWebhookEndpointDisabledAction,
} from "./actions";

/** Queues a signed test event for the endpoint and says where to watch it arrive. */
function TestEventButton({ endpoint }: { endpoint: { id: string; url: string } }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const send = async () => {
    setBusy(true);
    setSaid(null);
    const result = await sendWebhookTestEventAction({ id: endpoint.id }).catch(() => null);
    setBusy(false);
    setSaid(
      result?.ok
        ? { ok: true, text: "Test event queued: see it under Deliveries." }
        : {
            ok: false,
            text: result ? result.error.message : "The test event could not be sent. Please try again.",
          },
    );
    router.refresh();
  };
  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        aria-label={`Send a test event to ${endpoint.url}`}
        onClick={() => void send()}
      >
        Send a test event
      </button>
      <span role="status" className={said && !said.ok ? "field-error" : "muted"}>
        {said?.text}
      </span>
    </>
  );
}

/** Disable / enable and remove for one endpoint. */
export function EndpointActions({ endpoint }: { endpoint: { id: string; url: string; disabled: boolean } }) {
  const { busy, failure, act } = useRefreshingAction();
  return (
    <div className="admin-cell-actions">
      <TestEventButton endpoint={endpoint} />
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        aria-label={`${endpoint.disabled ? "Enable" : "Disable"} ${endpoint.url}`}
        onClick={() =>
          void act(() => setWebhookEndpointDisabledAction({ id: endpoint.id, disabled: !endpoint.disabled }))
        }
      >
        {endpoint.disabled ? "Enable" : "Disable"}
      </button>
      <button
        type="button"
        className="button button-danger"
        disabled={busy}
        aria-label={`Remove ${endpoint.url}`}
        onClick={() => {
          if (window.confirm(`Remove the endpoint ${endpoint.url}? Its deliveries go with it.`)) {
            void act(() => removeWebhookEndpointAction({ id: endpoint.id }));
          }
        }}
      >
        Remove
      </button>
      <ActionFailure text={failure} />
    </div>
  );
}

/** Sends a delivered or failed delivery again. */
export function ReplayButton({ deliveryId, label }: { deliveryId: string; label: string }) {
  const { busy, failure, act } = useRefreshingAction();
  return (
    <div className="admin-cell-actions">
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        aria-label={label}
        onClick={() => void act(() => replayWebhookDeliveryAction({ id: deliveryId }))}
      >
        Replay
      </button>
      <ActionFailure text={failure} />
    </div>
  );
}
