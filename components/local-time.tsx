"use client";

import { useEffect, useState } from "react";

const FORMAT: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

/** A moment in the viewer's own locale and time zone ("7 Dec 2026, 03:07"). */
export function formatLocalTime(iso: string, locale?: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { ...FORMAT, ...(timeZone ? { timeZone } : {}) }).format(
    new Date(iso),
  );
}

/**
 * The ISO moment as the server renders it ("2026-12-07 02:07 UTC"), which names its zone, so
 * markup read before the browser takes over is never a time in a zone nobody said.
 */
export function isoFallback(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * A `<time>` in the viewer's locale and time zone. The server knows neither, so it renders the
 * ISO fallback and the browser replaces it once mounted; server and browser markup agree.
 */
export function LocalTime({ dateTime }: { dateTime: string }) {
  const local = useLocalTime(dateTime);
  return <time dateTime={dateTime}>{local ?? isoFallback(dateTime)}</time>;
}

/** The moment in the viewer's locale and zone once mounted; null in the server's render. */
export function useLocalTime(iso: string): string | null {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => setText(formatLocalTime(iso)), [iso]);
  return text;
}
