"use client";

import { useActionState } from "react";
import { disconnectMcpServerAction, disconnectProviderAction } from "./actions";

export function DisconnectButton({ provider, label }: { provider: string; label: string }) {
  const [result, disconnect, busy] = useActionState(() => disconnectProviderAction({ provider }), null);
  return (
    <form action={disconnect}>
      <button type="submit" className="button button-danger" disabled={busy}>
        {busy ? "Disconnecting…" : `Disconnect ${label}`}
      </button>
      {result && !result.ok && (
        <p className="alert alert-error" role="alert">
          {result.error.message}
        </p>
      )}
    </form>
  );
}

export function DisconnectMcpButton({ server }: { server: string }) {
  const [result, disconnect, busy] = useActionState(() => disconnectMcpServerAction({ server }), null);
  return (
    <form action={disconnect}>
      <button type="submit" className="button button-danger" disabled={busy}>
        {busy ? "Disconnecting…" : `Disconnect ${server}`}
      </button>
      {result && !result.ok && (
        <p className="alert alert-error" role="alert">
          {result.error.message}
        </p>
      )}
    </form>
  );
}
