import type { ConnectionNotice } from "./reconnect-policy";

/** Says that the chat lost its live stream: quietly while it reattaches, then with Retry. */
export function ConnectionNoticeView({ notice, onRetry }: { notice: ConnectionNotice; onRetry: () => void }) {
  if (notice === "reconnecting") {
    return (
      <p role="status" className="connection-notice muted">
        Reconnecting…
      </p>
    );
  }
  return (
    <div className="connection-notice">
      <p role="alert" className="alert alert-error">
        {notice === "offline"
          ? "You are offline. The chat will catch up when the connection is back."
          : "The chat lost its connection to the server and could not reconnect."}
      </p>
      <button type="button" className="button button-secondary" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
