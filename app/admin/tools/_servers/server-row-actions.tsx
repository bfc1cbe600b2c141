"use client";

import { ActionFailure, useRefreshingAction } from "@/components/admin/use-refreshing-action";
import { removeMcpServerAction, setMcpServerDisabledAction } from "./actions";

/** Disable / enable and remove for one server an admin added. */
export function ServerRowActions({ server }: { server: { id: string; name: string; disabled: boolean } }) {
  const { busy, failure, act } = useRefreshingAction();

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
      <ActionFailure text={failure} />
    </div>
  );
}
