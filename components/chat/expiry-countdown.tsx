"use client";

import { useEffect, useState } from "react";
import { formatLocalTime, isoFallback } from "../local-time";
import { formatTimeLeft } from "./format-time-left";

/**
 * Time left before a request expires, ticking once a second; the moment itself, in the viewer's
 * zone, on hover. The first render prints the ISO moment, so server and browser markup agree
 * before the clock starts.
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
    <time
      dateTime={expiresAt}
      title={now === null ? undefined : `Expires ${formatLocalTime(expiresAt)}`}
      className="expiry"
    >
      {now === null ? `expires ${isoFallback(expiresAt)}` : formatTimeLeft(deadline - now)}
    </time>
  );
}
