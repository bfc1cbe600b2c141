"use client";

import { startTransition, useActionState } from "react";

/** What an admin control says about its last action; null before the first and while one runs. */
export type Note = { ok: boolean; text: string } | null;

/**
 * Runs an admin action as a React action: `busy` while it runs, and its note once it is done.
 * The previous note is hidden meanwhile, so a stale "Saved" never stands next to a new attempt.
 */
export function useNoteAction<Payload = void>(perform: (payload: Payload) => Promise<Note>) {
  const [last, dispatch, busy] = useActionState(
    (_previous: Note, payload: Payload) => perform(payload),
    null,
  );
  return {
    note: busy ? null : last,
    busy,
    run: (payload: Payload) => startTransition(() => dispatch(payload)),
  };
}
