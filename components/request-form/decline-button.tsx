import type { AnswerDraft } from "./request-view";

/** Turns the request down: the answer `{ ok: false, reason: "declined" }`, as an MCP server reads it. */
export function DeclineButton({ busy, send }: { busy: boolean; send: (draft: AnswerDraft) => void }) {
  return (
    <button
      type="button"
      className="button button-secondary"
      disabled={busy}
      onClick={() => void send({ ok: false, reason: "declined" })}
    >
      Decline
    </button>
  );
}
