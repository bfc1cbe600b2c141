"use client";

import { useState } from "react";
import { CopyButton } from "@/components/copy-button";
import type { ActionResult } from "@/lib/errors";
import { unsentResult } from "@/lib/errors";
import { McpSetup } from "./mcp-setup";
import { TokenSnippets } from "./token-snippets";

const SCOPES = [
  { value: "requests:write", label: "requests:write — make and cancel requests" },
  { value: "requests:read", label: "requests:read — read requests and wait for their answers" },
  {
    value: "requests:answer",
    label: "requests:answer — answer requests, or vote on your group's, as you would in the inbox",
  },
  {
    value: "a2a",
    label: "a2a — talk to the app's agent over A2A: start chats, follow them, answer what they ask you",
  },
] as const;

const LIFETIMES = [
  { value: "30", label: "30 days" },
  { value: "7", label: "7 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "Never" },
] as const;

type CreateToken = (input: {
  name: string;
  scopes: string[];
  expiresInDays: number | null;
}) => Promise<ActionResult<{ token: string; row: { name: string } }>>;

/**
 * Makes a token and shows it once: it lives in this component's state until the page is left,
 * and the server keeps only its hash.
 */
export function CreateTokenForm({ createToken }: { createToken: CreateToken }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string; scopes: string[] } | null>(null);

  async function submit(form: FormData) {
    setBusy(true);
    setError(null);
    const lifetime = String(form.get("expiresInDays"));
    const scopes = form.getAll("scopes").map(String);
    const result = await createToken({
      name: String(form.get("name") ?? ""),
      scopes,
      expiresInDays: lifetime === "never" ? null : Number(lifetime),
    }).catch(() => unsentResult("The token could not be made. Please try again."));
    setBusy(false);
    if (result.ok) setCreated({ name: result.value.row.name, token: result.value.token, scopes });
    else setError(result.error.issues[0]?.message ?? result.error.message);
  }

  return (
    <section className="card stack" aria-labelledby="new-token-title">
      <h2 id="new-token-title">New token</h2>
      <form action={submit} className="stack">
        <div className="field">
          <label htmlFor="token-name">Name</label>
          <input id="token-name" name="name" type="text" maxLength={80} required placeholder="deploy bot" />
        </div>
        <fieldset className="field">
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope.value} className="checkbox">
              <input
                type="checkbox"
                name="scopes"
                value={scope.value}
                defaultChecked={scope.value !== "requests:answer" && scope.value !== "a2a"}
              />{" "}
              {scope.label}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="token-expiry">Expires after</label>
          <select id="token-expiry" name="expiresInDays" defaultValue="30">
            {LIFETIMES.map((lifetime) => (
              <option key={lifetime.value} value={lifetime.value}>
                {lifetime.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Creating…" : "Create token"}
        </button>
      </form>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      {created && (
        <div className="alert alert-info stack" role="status">
          <p>
            Your token <strong>{created.name}</strong>. Copy it now: it is not shown again.
          </p>
          <output aria-label="New token" className="tn-json" data-testid="new-token">
            {created.token}
          </output>
          <CopyButton text={created.token} label="Copy the token" />
          <TokenSnippets token={created.token} />
          <McpSetup token={created.token} scopes={created.scopes} />
        </div>
      )}
    </section>
  );
}
