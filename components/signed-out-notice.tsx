"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState, useSyncExternalStore } from "react";

// Several live parts of one page (the chat and its sidebar) learn of a signed-out session at
// once; only the first of them mounted says so.
const holders: symbol[] = [];
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function useIsFirstHolder(): boolean {
  const [me] = useState(() => Symbol("signed-out-notice"));
  useEffect(() => {
    holders.push(me);
    notify();
    return () => {
      holders.splice(holders.indexOf(me), 1);
      notify();
    };
  }, [me]);
  return useSyncExternalStore(
    subscribe,
    () => holders[0] === me,
    () => false,
  );
}

/** Shown once a live view learns that the session ended: it stops following and says why. */
export function SignedOutNotice() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const first = useIsFirstHolder();
  if (!first) return null;
  const back = `${pathname}${search ? `?${search}` : ""}`;
  return (
    <p role="alert" className="alert alert-error signed-out-notice">
      You are signed out, so this page no longer updates.{" "}
      <Link href={`/login?callbackUrl=${encodeURIComponent(back)}`}>Sign in</Link> to continue.
    </p>
  );
}
