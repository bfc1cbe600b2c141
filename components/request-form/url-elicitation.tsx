"use client";

import { DeclineButton } from "./decline-button";
import { followableUrl } from "./followable-url";
import type { SubmitAnswer } from "./request-view";
import { SubmitStatus } from "./submit-status";
import { useAnswerSubmit } from "./use-answer-submit";

interface UrlElicitationProps {
  url: string | undefined;
  server?: string;
  submit: SubmitAnswer;
  onSent?: () => void;
}

function hostOf(href: string): string {
  try {
    return new URL(href).host;
  } catch {
    return "the server's page";
  }
}

/**
 * An MCP server sends the user to a page of its own (a sign-in, a payment) instead of asking
 * through a form. Like a tool sign-in it is a link card; since that page cannot call this app
 * back, the user says here when they are done, or declines. Its prompt is shown above the form
 * by the card or page, as for a tool sign-in, and not repeated here.
 */
export function UrlElicitation({ url, server, submit, onSent }: UrlElicitationProps) {
  const { state, send, busy } = useAnswerSubmit(submit, onSent);
  const href = followableUrl(url);
  return (
    <div className="tn-authorization">
      {href ? (
        <>
          <p className="muted">
            {server ? `The “${server}” server asks you to open ` : "Open "}
            <strong>{hostOf(href)}</strong>, outside this app.
          </p>
          <a className="button" href={href} target="_blank" rel="noopener noreferrer">
            Open {hostOf(href)}
          </a>
        </>
      ) : (
        <p className="alert alert-error">The server sent a link that cannot be opened safely.</p>
      )}
      <div className="tn-form-buttons">
        {href && (
          <button type="button" className="button" disabled={busy} onClick={() => void send({ ok: true })}>
            I have finished there
          </button>
        )}
        <DeclineButton busy={busy} send={send} />
      </div>
      <SubmitStatus state={state} />
    </div>
  );
}
