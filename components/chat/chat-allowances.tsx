"use client";

import { useState } from "react";
import { type ActionResult, unsentResult } from "@/lib/errors";

export interface ChatAllowanceItem {
  toolName: string;
  /** RFC 3339. */
  createdAt: string;
}

export type RevokeAllowance = (input: { toolName: string }) => Promise<ActionResult<unknown>>;

/** The tools this chat's owner chose to "always allow" here, each with a way to take it back. */
export function ChatAllowances({
  allowances,
  revoke,
}: {
  allowances: ChatAllowanceItem[];
  revoke: RevokeAllowance;
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
    <section className="chat-allowances" aria-label="Allowed in this chat">
      <span className="muted">Allowed in this chat without asking:</span>
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
