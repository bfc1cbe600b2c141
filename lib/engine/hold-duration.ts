/** How long a decision waits for an Undo. TOOLNEXUS_HOLD_SECONDS changes it (0 turns it off). */
export function holdDurationMs(env: Record<string, string | undefined> = process.env): number {
  const seconds = Number(env.TOOLNEXUS_HOLD_SECONDS ?? 5);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= 60 ? seconds * 1000 : 5000;
}
