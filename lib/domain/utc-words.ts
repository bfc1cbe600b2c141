// A moment in words where the server speaks and knows no viewer's zone (refusals, the admins'
// audit): "9 Dec 2026, 09:00", always read as UTC, which the sentence then names.

const UTC_WORDS = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "9 Dec 2026, 09:00" (UTC) for a Date or an ISO string; "an unknown time" for anything else. */
export function utcWords(value: unknown): string {
  const at = value instanceof Date ? value : new Date(typeof value === "string" ? value : Number.NaN);
  return Number.isNaN(at.getTime()) ? "an unknown time" : UTC_WORDS.format(at);
}
