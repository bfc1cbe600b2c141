// A `datetime-local` input holds a wall-clock time with no zone; the browser reads it in the
// viewer's own zone. These convert between that text and instants, in the browser only (the
// server knows no viewer's zone).

const pad = (n: number) => String(n).padStart(2, "0");

/** "2026-12-09T09:00" for the instant, in the zone of whoever runs this (the viewer's browser). */
export function toLocalInputValue(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The instant a `datetime-local` value names in this zone, as ISO; "" for an empty or bad value. */
export function localInputToIso(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return "";
  // A date-time without an offset is local time, so the browser applies the viewer's zone.
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? "" : at.toISOString();
}
