"use client";

import { useEffect, useState } from "react";

/**
 * Whether the moment `until` has passed, turning true by itself when it does: a take lapses
 * without anything being stored, so each page watches the clock for it.
 */
export function useLapsed(until: string | undefined): boolean {
  const deadline = until ? Date.parse(until) : Number.NaN;
  const [lapsed, setLapsed] = useState(false);
  useEffect(() => {
    if (Number.isNaN(deadline)) return;
    const left = deadline - Date.now();
    setLapsed(left <= 0);
    if (left <= 0) return;
    const timer = setTimeout(() => setLapsed(true), left);
    return () => clearTimeout(timer);
  }, [deadline]);
  return Number.isNaN(deadline) || lapsed;
}
