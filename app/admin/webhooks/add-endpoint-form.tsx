"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { FormErrors } from "@/components/admin/form-errors";
import { CopyButton } from "@/components/copy-button";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/domain/webhooks";
import type { FieldIssue } from "@/lib/errors";
import { addWebhookEndpointAction } from "./actions";

const fieldLabel: Record<string, string> = {
  "/url": "URL",
  "/description": "Description",
  "/events": "Events",
};

/** Registers an endpoint and shows its signing secret once; it cannot be read again afterwards. */
export function AddEndpointForm() {
  const router = useRouter();
  const id = useId();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<
    { ok: true; url: string; secret: string } | { ok: false; text: string; issues: FieldIssue[] } | null
  >(null);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setOutcome(null);
    const result = await addWebhookEndpointAction({ url, description, events }).catch(() => null);
    setBusy(false);
    if (!result)
      return setOutcome({
        ok: false,
        text: "The endpoint could not be added. Please try again.",
        issues: [],
      });
    if (!result.ok) return setOutcome({ ok: false, text: result.error.message, issues: result.error.issues });
    setOutcome({ ok: true, url, secret: result.value.secret });
    setUrl("");
    setDescription("");
    router.refresh();
  };

  return (
    <form className="admin-server-form stack" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Add an endpoint</h3>
      <label>
        URL
        <input
          name="url"
          type="url"
          value={url}
          required
          placeholder="https://example.com/webhooks/toolnexus"
          autoComplete="off"
          disabled={busy}
          onChange={(event) => setUrl(event.target.value)}
        />
      </label>
      <label>
        Description (optional)
        <input
          name="description"
          value={description}
          maxLength={200}
          autoComplete="off"
          disabled={busy}
          onChange={(event) => setDescription(event.target.value)}
        />
      </label>
      <fieldset>
        <legend>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="admin-checkbox">
            <input
              type="checkbox"
              checked={events.includes(type)}
              disabled={busy}
              onChange={(event) =>
                setEvents((list) =>
                  event.target.checked ? [...list, type] : list.filter((candidate) => candidate !== type),
                )
              }
            />{" "}
            <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <div className="admin-cell-actions">
        <button type="submit" className="button" disabled={busy}>
          Add endpoint
        </button>
      </div>
      {outcome?.ok && (
        <div role="status" className="alert alert-info">
          <p>
            Added {outcome.url}. Its signing secret is shown only now: copy it to the receiver, which checks
            each delivery's <code>webhook-signature</code> with it.
          </p>
          <p>
            <label>
              Signing secret
              <input
                readOnly
                value={outcome.secret}
                className="admin-secret"
                onFocus={(e) => e.target.select()}
              />
            </label>
            <CopyButton text={outcome.secret} label="Copy the signing secret" />
          </p>
        </div>
      )}
      {outcome && !outcome.ok && (
        <FormErrors text={outcome.text} issues={outcome.issues} labels={fieldLabel} />
      )}
    </form>
  );
}
