"use client";

import { useState, useTransition } from "react";
import { LocalTime } from "@/components/local-time";
import type { TakeView } from "@/lib/domain/inbox";
import type { ActionResult } from "@/lib/errors";
import { useLapsed } from "./use-lapsed";

/**
 * "I'm on it" for the request shown: tells colleagues who is looking at it, until it lapses or
 * its holder lets go. It never stands in the way of an answer, the holder's or anyone's.
 */
export function TakeControl({
  take,
  onTake,
}: {
  take: TakeView | null;
  onTake: (take: boolean) => Promise<ActionResult<unknown>>;
}) {
  const lapsed = useLapsed(take?.until);
  const current = take && !lapsed ? take : null;
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  const act = (want: boolean) =>
    startTransition(async () => {
      const result = await onTake(want).catch(() => null);
      setFailure(
        result === null
          ? "That did not reach the server. Please try again."
          : result.ok
            ? null
            : result.error.message,
      );
    });
  return (
    <section className="tn-take" aria-label="Who is on it">
      {current && !current.mine && (
        <p className="muted" role="status">
          {current.takerName} is on it until <LocalTime dateTime={current.until} />. You can still answer.
        </p>
      )}
      {current?.mine ? (
        <>
          <p className="muted" role="status">
            You are on it; colleagues see so until <LocalTime dateTime={current.until} />.
          </p>
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => act(false)}
          >
            Let go
          </button>
        </>
      ) : (
        !current && (
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => act(true)}>
            I'm on it
          </button>
        )
      )}
      {failure && (
        <p role="alert" className="alert alert-error">
          {failure}
        </p>
      )}
    </section>
  );
}
