"use client";

import { useEffect, useState } from "react";
import { formatAge } from "@/components/inbox/format-age";
import { isoFallback } from "@/components/local-time";
import { tallyLine, type VoteTally } from "@/lib/domain/vote-tally";
import type { ActionResult } from "@/lib/errors";

export type ReadTally = (input: { requestId: string }) => Promise<ActionResult<VoteTally | null>>;

// How often an open group request's votes are read again while it is on screen.
const POLL_MS = 4_000;

/**
 * A group's votes so far: "1 of 2 approvals — Rita, 2m ago", who may still vote, and the votes
 * that stopped counting. With `read` it stays live while the request is open (votes move no
 * thread event; the answer that settles it does): it reads the tally again whenever `read` is a
 * new function (the chat renews it when its stream says the request changed) and every few seconds.
 */
export function VoteTallyView({
  tally: initial,
  requestId,
  read,
  brief = false,
}: {
  tally: VoteTally | null;
  requestId: string;
  read?: ReadTally;
  brief?: boolean;
}) {
  const [tally, setTally] = useState(initial);
  // A page the server renders again (the live inbox's refresh) brings a newer tally: it wins
  // over the one read here before.
  const [rendered, setRendered] = useState(initial);
  if (initial !== rendered) {
    setRendered(initial);
    setTally(initial);
  }
  const [now, setNow] = useState<number | null>(null);
  const settled = tally !== null && (tally.declined !== null || tally.approvals.length >= tally.required);
  useEffect(() => {
    setNow(Date.now());
    if (!read || settled) return;
    let live = true;
    const poll = async () => {
      const result = await read({ requestId }).catch(() => null);
      // No tally: not a group's request, nothing to follow.
      if (result?.ok && result.value === null) clearInterval(timer);
      if (live && result?.ok) setTally(result.value);
      if (live) setNow(Date.now());
    };
    if (initial === null) void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [read, requestId, settled, initial]);
  if (tally === null) return null;
  const age = (at: string) => (now === null ? isoFallback(at) : formatAge(now - Date.parse(at)));
  return (
    <div className="vote-tally" data-testid="vote-tally">
      <p>
        <strong>{tallyLine(tally, age)}</strong> <span className="muted">from {tally.group}</span>
      </p>
      {!brief && (
        <>
          {tally.approvals.length > 0 && <p>Approved by {tally.approvals.map((v) => v.name).join(", ")}</p>}
          {tally.declined && (
            <p>
              Declined by {tally.declined.name}
              {tally.declined.reason ? `: ${tally.declined.reason}` : ""}
            </p>
          )}
          {!settled && tally.stillToVote.length > 0 && (
            <p className="muted">May still vote: {tally.stillToVote.join(", ")}</p>
          )}
          {tally.voided.length > 0 && (
            <p className="muted">
              No longer counting (the arguments were edited after):{" "}
              {tally.voided.map((v) => v.name).join(", ")}
            </p>
          )}
          {tally.late.length > 0 && (
            <p className="muted">
              Too late (after it was settled): {tally.late.map((v) => v.name).join(", ")}
            </p>
          )}
        </>
      )}
    </div>
  );
}
