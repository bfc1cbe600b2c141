"use client";

import Link from "next/link";
import { createContext, type ReactNode, useContext, useState } from "react";
import { useLiveVersion } from "./use-live-version";

/** The live count of requests waiting for the signed-in person; null where nobody is. */
const WaitingCount = createContext<number | null>(null);

/**
 * Follows how many requests wait for the signed-in person, over one stream, for every
 * `InboxCount` inside it: the Inbox link's and, on a phone, the header's `WaitingLink`.
 */
export function InboxCountProvider({ initial, children }: { initial: number; children: ReactNode }) {
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
  return <WaitingCount.Provider value={count}>{children}</WaitingCount.Provider>;
}

/**
 * The nav's "Inbox 3": how many requests wait, as the provider above follows it. Nothing
 * shows at zero. Screen readers hear "Inbox 3 waiting" as the link's name.
 */
export function InboxCount({ testId = "inbox-count" }: { testId?: string }) {
  const count = useContext(WaitingCount);
  if (!count) return null;
  return (
    <>
      {" "}
      <span className="nav-count" data-testid={testId}>
        {count}
        <span className="visually-hidden"> waiting</span>
      </span>
    </>
  );
}

/**
 * On a phone the Inbox link sits in the folded menu, so the header itself says how many wait,
 * as a link to the inbox (its stylesheet hides it on wide screens, where the Inbox link shows).
 * Nothing shows at zero. Named "3 waiting in your inbox", apart from the menu's "Inbox 3 waiting".
 */
export function WaitingLink() {
  const count = useContext(WaitingCount);
  if (!count) return null;
  return (
    <Link href="/inbox" className="app-waiting" data-testid="header-inbox-count">
      {count} waiting<span className="visually-hidden"> in your inbox</span>
    </Link>
  );
}
