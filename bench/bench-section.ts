export interface BenchContext {
  iterations: number;
  warmup: number;
  /** A one-pass run that only proves the harness works: sections skip settle waits and heavy servers. */
  smoke: boolean;
  log(line: string): void;
}

export interface ResultRow {
  label: string;
  unit: string;
  p50: number;
  p95?: number;
  n: number;
}

export interface Comparison {
  label: string;
  value: number;
  /** The goal, as an upper bound on `value`; `met` is only present when there is a target. */
  targetMax?: number;
  met?: boolean;
}

export type SectionOutcome =
  | { status: "done"; rows: ResultRow[]; comparisons: Comparison[]; notes: string[] }
  | { status: "skipped"; reason: string };

export type SectionResult = { name: string; title: string; durationMs: number } & (
  | SectionOutcome
  | { status: "failed"; error: string }
);

/** One independent part of `npm run bench`; later parts register theirs in `sections.ts`. */
export interface BenchSection {
  name: string;
  title: string;
  run(context: BenchContext): Promise<SectionOutcome>;
}

export function compare(label: string, value: number, targetMax?: number): Comparison {
  if (targetMax === undefined) return { label, value };
  return { label, value, targetMax, met: value <= targetMax };
}
