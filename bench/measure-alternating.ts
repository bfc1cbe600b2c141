export interface Contender {
  name: string;
  /** One complete request; it must throw if the outcome is wrong, so a broken contender is never timed. */
  run(): Promise<void>;
}

export interface Samples {
  /** Wall-clock milliseconds per request, indexed by iteration. */
  wallMs: number[];
  /** Process CPU milliseconds (user + system) per request, indexed by iteration. */
  cpuMs: number[];
}

export interface AlternatingOptions {
  contenders: Contender[];
  iterations: number;
  warmup: number;
}

/**
 * Runs every contender once per iteration, rotating who goes first, so drift on a noisy machine
 * (other jobs, CPU frequency, GC debt) lands on all contenders alike instead of on whoever ran last.
 */
export async function measureAlternating(options: AlternatingOptions): Promise<Map<string, Samples>> {
  const { contenders, iterations, warmup } = options;
  const samples = new Map<string, Samples>(contenders.map((c) => [c.name, { wallMs: [], cpuMs: [] }]));
  const count = contenders.length;
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < count; k++) {
      const contender = contenders[(i + k) % count]!;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await contender.run();
      const wall = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      if (i < warmup) continue;
      const target = samples.get(contender.name)!;
      target.wallMs.push(wall);
      target.cpuMs.push((cpu.user + cpu.system) / 1000);
    }
  }
  return samples;
}
