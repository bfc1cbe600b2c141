"use client";

import { useState } from "react";
import { useLiveVersion } from "./use-live-version";

/**
 * How many requests wait for the signed-in person, kept live, as the nav's "Inbox 3". Nothing
 * shows at zero. Screen readers hear "Inbox 3 waiting" as the link's name.
 */
export function InboxCount({ initial }: { initial: number }) {
  const [count, setCount] = useState(initial);
  // A re-render of the page (a refresh, a navigation) brings a count as fresh as the stream's:
  // it counts, or the stream's next equal version would be taken for one already shown.
  const [rendered, setRendered] = useState(initial);
  if (rendered !== initial) {
    setRendered(initial);
    setCount(initial);
  }
  useLiveVersion("/api/inbox/count/stream", String(initial), (version) => {
    const next = Number(version);
    if (Number.isInteger(next) && next >= 0) setCount(next);
  });
  if (count === 0) return null;
  return (
    <>
      {" "}
      <span className="nav-count" data-testid="inbox-count">
        {count}
        <span className="visually-hidden"> waiting</span>
      </span>
    </>
  );
}
