"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActiveRunRow } from "@/lib/domain/admin-rows";
import { type ActionResult, unsentResult } from "@/lib/errors";
import { formatUtc } from "./format-utc";
import { useNoteAction } from "./use-note-action";

/** One row of the runs table: the active run as the page reads it, minus the owner's id. */
export type AdminRunItem = Omit<ActiveRunRow, "ownerId">;

export type SubmitCancel = (input: { runId: string }) => Promise<ActionResult<unknown>>;

function titleOf(run: AdminRunItem): string {
  return run.threadTitle || "Untitled chat";
}

/** "Cancel run", then a second, explicit yes: a cancel cannot be taken back. */
function CancelCell({
  run,
  busy,
  onConfirm,
}: {
  run: AdminRunItem;
  busy: boolean;
  onConfirm: (run: AdminRunItem) => void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        onClick={() => setAsking(true)}
      >
        Cancel run
      </button>
    );
  }
  return (
    <div className="admin-cell-actions">
      <span>Cancel this run and its open requests?</span>
      <button type="button" className="button button-danger" disabled={busy} onClick={() => onConfirm(run)}>
        Yes, cancel the run
      </button>
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        onClick={() => setAsking(false)}
      >
        Keep it
      </button>
    </div>
  );
}

export function RunTable({ runs, submitCancel }: { runs: AdminRunItem[]; submitCancel: SubmitCancel }) {
  const router = useRouter();
  // Kept here, not in the row: a cancelled run leaves the list, its outcome should not.
  const {
    note: outcome,
    busy,
    run: cancel,
  } = useNoteAction(async (run: AdminRunItem) => {
    const result = await submitCancel({ runId: run.id }).catch(() =>
      unsentResult("The run could not be cancelled. Please try again."),
    );
    router.refresh();
    return result.ok
      ? { ok: true, text: `Cancelled the run of “${titleOf(run)}”.` }
      : { ok: false, text: `“${titleOf(run)}”: ${result.error.message}` };
  });

  return (
    <div className="stack">
      <p role="status">{outcome?.ok && outcome.text}</p>
      {outcome && !outcome.ok && (
        <p role="alert" className="alert alert-error">
          {outcome.text}
        </p>
      )}
      {runs.length === 0 ? (
        <p className="muted">No run is working or waiting right now.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" aria-label="Active runs">
            <thead>
              <tr>
                <th scope="col">Chat</th>
                <th scope="col">Owner</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">Open requests</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id}>
                  <th scope="row">{titleOf(run)}</th>
                  <td>{run.ownerName ?? "—"}</td>
                  <td>
                    <span className="badge">{run.status === "pending" ? "parked" : "running"}</span>
                  </td>
                  <td>
                    <time dateTime={run.startedAt}>{formatUtc(run.startedAt)}</time>
                  </td>
                  <td className="admin-number">{run.openRequests}</td>
                  <td>
                    <CancelCell run={run} busy={busy} onConfirm={cancel} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
