/**
 * Where a run's event writer stood after each stream event it was handed (index 0: before the
 * first), so a safe point that says "the first n events led here" (`SafePoint.events`) can be
 * stored with exactly those, whatever the stream delivered since.
 */
export function createStreamPositions(position: () => number) {
  const positions: number[] = [];
  let waiting: { events: number; resolve: () => void }[] = [];
  return {
    /** Notes the writer's position: once before the first stream event, then after each one. */
    forwarded() {
      const count = positions.length;
      positions.push(position());
      waiting = waiting.filter((w) => {
        if (w.events > count) return true;
        w.resolve();
        return false;
      });
    },
    /**
     * The writer's position after the first `events` stream events, once they have been handed
     * over (the loop reports a safe point while the events before it may still be in the stream).
     */
    async after(events: number): Promise<number> {
      if (events >= positions.length) await new Promise<void>((resolve) => waiting.push({ events, resolve }));
      return positions[events] ?? position();
    },
    /** The stream has ended: nobody waits any longer. */
    close() {
      for (const w of waiting) w.resolve();
      waiting = [];
    },
  };
}
