"use client";

import { useEffect, useState } from "react";
import { formatAge } from "./format-age";

/**
 * How long ago a request was asked, updated every half minute. The first render prints the
 * timestamp, so server and browser markup agree before the clock starts.
 */
export function RequestAge({ createdAt }: { createdAt: string }) {
  const asked = Date.parse(createdAt);
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={createdAt} title={new Date(asked).toUTCString()}>
      {now === null ? new Date(asked).toUTCString() : formatAge(now - asked)}
    </time>
  );
}
