"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { removeMcpServerAction, setMcpServerDisabledAction } from "./actions";

/** Disable / enable and remove for one server an admin added. */
export function ServerRowActions({ server }: { server: { id: string; name: string; disabled: boolean } }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const act = async (work: () => Promise<{ ok: true } | { ok: false; error: { message: string } }>) => {
    setBusy(true);
    setFailure(null);
    const result = await work().catch(() => ({
      ok: false as const,
      error: { message: "Please try again." },
    }));
    setBusy(false);
    if (!result.ok) setFailure(result.error.message);
    router.refresh();
  };

  return (
    <div className="admin-cell-actions">
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        onClick={() =>
          void act(() => setMcpServerDisabledAction({ id: server.id, disabled: !server.disabled }))
        }
      >
        {server.disabled ? `Enable ${server.name}` : `Disable ${server.name}`}
      </button>
      <button
        type="button"
        className="button button-danger"
        disabled={busy}
        onClick={() => {
          if (
            window.confirm(`Remove the server “${server.name}”? Its tools leave the agent at the next run.`)
          ) {
            void act(() => removeMcpServerAction({ id: server.id }));
          }
        }}
      >
        Remove {server.name}
      </button>
      {failure && (
        <p role="alert" className="field-error">
          {failure}
        </p>
      )}
    </div>
  );
}
