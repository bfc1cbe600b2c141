import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BenchSection, SectionResult } from "./bench-section";

export const DEFAULT_ITERATIONS = 1000;
export const DEFAULT_WARMUP = 200;

export interface BenchResults {
  startedAt: string;
  machine: { node: string; platform: string; cpus: number; cpuModel: string; memoryGb: number };
  /** 1-minute load average before and after: on a shared machine it says how noisy the run was. */
  loadAverage: { start: number; end: number };
  iterations: number;
  warmup: number;
  smoke: boolean;
  sections: SectionResult[];
}

export interface RunBenchOptions {
  sections: BenchSection[];
  only?: string[] | undefined;
  iterations?: number | undefined;
  warmup?: number | undefined;
  smoke?: boolean;
  out: string;
  log?: (line: string) => void;
}

/** Runs the chosen sections one after another (never in parallel: they would time each other). */
export async function runBench(options: RunBenchOptions): Promise<BenchResults> {
  const log = options.log ?? (() => {});
  const known = new Set(options.sections.map((s) => s.name));
  const unknown = (options.only ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new Error(`unknown section(s): ${unknown.join(", ")}; known: ${[...known].join(", ")}`);
  const chosen = options.only
    ? options.sections.filter((s) => options.only!.includes(s.name))
    : options.sections;

  const cpus = os.cpus();
  const results: BenchResults = {
    startedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${os.type()} ${os.release()} ${os.arch()}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? "unknown",
      memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    },
    loadAverage: { start: os.loadavg()[0]!, end: Number.NaN },
    iterations: options.iterations ?? (options.smoke ? 1 : DEFAULT_ITERATIONS),
    warmup: options.warmup ?? (options.smoke ? 0 : DEFAULT_WARMUP),
    smoke: options.smoke ?? false,
    sections: [],
  };
  for (const section of chosen) {
    log(`running ${section.name} ...`);
    const started = performance.now();
    const base = { name: section.name, title: section.title };
    try {
      const outcome = await section.run({
        iterations: results.iterations,
        warmup: results.warmup,
        smoke: results.smoke,
        log,
      });
      results.sections.push({ ...base, durationMs: performance.now() - started, ...outcome });
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      results.sections.push({
        ...base,
        durationMs: performance.now() - started,
        status: "failed",
        error: message,
      });
    }
  }
  results.loadAverage.end = os.loadavg()[0]!;
  await mkdir(path.dirname(path.resolve(options.out)), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(results, null, 2)}\n`);
  return results;
}
