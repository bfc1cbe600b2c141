"use client";

import type { Note } from "./use-note-action";

/** A cell's outcome: success as a status, a refusal as an alert. */
export function CellNote({ note }: { note: Note }) {
  return (
    <>
      <span role="status" className="admin-cell-note">
        {note?.ok && note.text}
      </span>
      {note && !note.ok && (
        <span role="alert" className="admin-cell-note admin-cell-error">
          {note.text}
        </span>
      )}
    </>
  );
}
