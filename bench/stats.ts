export interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  min: number;
}

/** Nearest-rank percentiles: every reported figure is a value that was actually measured. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0)
    return { n: 0, p50: Number.NaN, p95: Number.NaN, mean: Number.NaN, min: Number.NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), mean: total / sorted.length, min: sorted[0]! };
}

/** Element-wise a[i] - b[i]: per-iteration differences keep pairs measured moments apart together. */
export function pairedDifferences(a: readonly number[], b: readonly number[]): number[] {
  const length = Math.min(a.length, b.length);
  const out = new Array<number>(length);
  for (let i = 0; i < length; i++) out[i] = a[i]! - b[i]!;
  return out;
}
