"use client";

import { useState } from "react";
import { type ActionResult, unsentResult } from "@/lib/errors";

export interface ChatAllowanceItem {
  toolName: string;
  /** RFC 3339. */
  createdAt: string;
}

export type RevokeAllowance = (input: { toolName: string }) => Promise<ActionResult<unknown>>;

/**
 * The tools someone chose to "always allow", each with a way to take it back: in a chat (its
 * owner's), or for an API token (on /settings/tokens).
 */
export function ChatAllowances({
  allowances,
  revoke,
  where = "in this chat",
}: {
  allowances: ChatAllowanceItem[];
  revoke: RevokeAllowance;
  /** Where the tools are allowed, as the list's label says it. */
  where?: string;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (allowances.length === 0) return null;

  const onRevoke = async (toolName: string) => {
    setBusy(toolName);
    setError(null);
    const result = await revoke({ toolName }).catch(() =>
      unsentResult("The tool could not be revoked. Please try again."),
    );
    setBusy(null);
    if (!result.ok) setError(result.error.message);
  };

  return (
    <section className="chat-allowances" aria-label={`Allowed ${where}`}>
      <span className="muted">Allowed {where} without asking:</span>
      <ul>
        {allowances.map((allowance) => (
          <li key={allowance.toolName}>
            <code>{allowance.toolName}</code>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy !== null}
              aria-label={`Revoke ${allowance.toolName}`}
              onClick={() => void onRevoke(allowance.toolName)}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="alert alert-error">
          {error}
        </p>
      )}
    </section>
  );
}
