"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { FormErrors } from "@/components/admin/form-errors";
import type { FieldIssue } from "@/lib/errors";
import { addMcpServerAction } from "./actions";

interface HeaderDraft {
  key: number;
  name: string;
  value: string;
}

const fieldLabel: Record<string, string> = {
  "/name": "Name",
  "/url": "URL",
  "/headers": "Headers",
  "/oauth/clientId": "Client ID",
  "/oauth/clientSecret": "Client secret",
  "/oauth/scope": "Scope",
};

/** Adds a remote server. Header values are write-only: once saved they are never shown again. */
export function AddServerForm() {
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [headers, setHeaders] = useState<HeaderDraft[]>([]);
  const [nextKey, setNextKey] = useState(1);
  const [oauth, setOauth] = useState(false);
  const [client, setClient] = useState({ clientId: "", clientSecret: "", scope: "" });
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<
    { ok: true; text: string } | { ok: false; text: string; issues: FieldIssue[] } | null
  >(null);

  const setHeader = (key: number, change: Partial<HeaderDraft>) =>
    setHeaders((list) => list.map((header) => (header.key === key ? { ...header, ...change } : header)));

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setOutcome(null);
    const result = await addMcpServerAction({
      name,
      url,
      headers: headers.map((header) => ({ name: header.name, value: header.value })),
      ...(oauth ? { oauth: client } : {}),
    }).catch(() => null);
    setBusy(false);
    if (!result)
      return setOutcome({ ok: false, text: "The server could not be added. Please try again.", issues: [] });
    if (!result.ok) return setOutcome({ ok: false, text: result.error.message, issues: result.error.issues });
    setOutcome({ ok: true, text: `Added ${result.value.name}.` });
    setName("");
    setUrl("");
    setHeaders([]);
    setOauth(false);
    setClient({ clientId: "", clientSecret: "", scope: "" });
    router.refresh();
  };

  return (
    <form className="admin-server-form stack" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Add a remote server</h3>
      <label>
        Name
        <input
          name="name"
          value={name}
          required
          maxLength={40}
          autoComplete="off"
          disabled={busy}
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <label>
        URL (Streamable HTTP or SSE endpoint)
        <input
          name="url"
          type="url"
          value={url}
          required
          placeholder="https://example.com/mcp"
          autoComplete="off"
          disabled={busy}
          onChange={(event) => setUrl(event.target.value)}
        />
      </label>
      {headers.map((header, index) => (
        <fieldset key={header.key} className="admin-server-header">
          <legend>Header {index + 1}</legend>
          <label>
            Header name
            <input
              value={header.name}
              placeholder="Authorization"
              autoComplete="off"
              disabled={busy}
              onChange={(event) => setHeader(header.key, { name: event.target.value })}
            />
          </label>
          <label>
            Header value
            <input
              type="password"
              value={header.value}
              autoComplete="new-password"
              disabled={busy}
              onChange={(event) => setHeader(header.key, { value: event.target.value })}
            />
          </label>
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => setHeaders((list) => list.filter((item) => item.key !== header.key))}
          >
            Remove header {index + 1}
          </button>
        </fieldset>
      ))}
      <p className="muted">
        Header values (an API key, a bearer token) are stored encrypted and never shown again.
      </p>
      <label className="admin-checkbox">
        <input
          type="checkbox"
          name="oauth"
          checked={oauth}
          disabled={busy}
          onChange={(event) => setOauth(event.target.checked)}
        />
        Each user signs in (MCP authorization, OAuth)
      </label>
      {oauth && (
        <fieldset className="admin-server-header">
          <legend>Sign-in client (optional)</legend>
          <p className="muted">
            Leave empty to let the app register itself at the server's authorization server. Register{" "}
            <code>/oauth/mcp/{name || "<name>"}/callback</code> under the app's URL as the redirect URI.
          </p>
          <label>
            Client ID
            <input
              value={client.clientId}
              autoComplete="off"
              disabled={busy}
              onChange={(event) => setClient({ ...client, clientId: event.target.value })}
            />
          </label>
          <label>
            Client secret
            <input
              type="password"
              value={client.clientSecret}
              autoComplete="new-password"
              disabled={busy}
              onChange={(event) => setClient({ ...client, clientSecret: event.target.value })}
            />
          </label>
          <label>
            Scope
            <input
              value={client.scope}
              autoComplete="off"
              disabled={busy}
              onChange={(event) => setClient({ ...client, scope: event.target.value })}
            />
          </label>
        </fieldset>
      )}
      <div className="admin-cell-actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => {
            setHeaders((list) => [...list, { key: nextKey, name: "", value: "" }]);
            setNextKey(nextKey + 1);
          }}
        >
          Add a header
        </button>
        <button type="submit" className="button" disabled={busy}>
          Add server
        </button>
      </div>
      {outcome?.ok && (
        <p role="status" className="alert alert-info">
          {outcome.text}
        </p>
      )}
      {outcome && !outcome.ok && (
        <FormErrors text={outcome.text} issues={outcome.issues} labels={fieldLabel} />
      )}
    </form>
  );
}
