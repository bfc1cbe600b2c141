"use client";

import { useEffect, useState } from "react";
import { formatTimeLeft } from "./format-time-left";

/**
 * Time left before a request expires, ticking once a second. The first render prints the
 * timestamp only, so server and browser markup agree before the clock starts.
 */
export function ExpiryCountdown({ expiresAt }: { expiresAt: string }) {
  const deadline = Date.parse(expiresAt);
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={expiresAt} title={new Date(deadline).toUTCString()} className="expiry">
      {now === null ? `expires ${new Date(deadline).toUTCString()}` : formatTimeLeft(deadline - now)}
    </time>
  );
}
