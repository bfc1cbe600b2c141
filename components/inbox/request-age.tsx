"use client";

import { useEffect, useState } from "react";
import { formatLocalTime, isoFallback } from "../local-time";
import { formatAge } from "./format-age";

/**
 * How long ago a request was asked, updated every half minute; the moment itself, in the
 * viewer's zone, on hover. The first render prints the ISO moment, so server and browser markup
 * agree before the clock starts.
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
    <time dateTime={createdAt} title={now === null ? undefined : formatLocalTime(createdAt)}>
      {now === null ? isoFallback(createdAt) : formatAge(now - asked)}
    </time>
  );
}
