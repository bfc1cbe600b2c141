import {
  type BenchContext,
  type Comparison,
  compare,
  type ResultRow,
  type SectionOutcome,
} from "./bench-section";
import { type Contender, measureAlternating } from "./measure-alternating";
import { pairedDifferences, summarize } from "./stats";
import { startStubProcess } from "./stub-llm-process";

export const OVERHEAD_TARGET = 0.7;
const ROUND_TRIPS_PER_REQUEST = 2;

export interface LoopComparisonPlan {
  /** Builds the contenders against the stub; the first one must be the raw-HTTP floor. */
  contenders(baseUrl: string): Promise<Array<Contender & { close?(): Promise<void> }>>;
  /** The contender measured against the target, and the one it is measured against. */
  subject: string;
  baseline: string;
  /** Further contenders the subject's loop overhead is compared with, each with its own target. */
  alsoAgainst?: Array<{ name: string; targetMax: number }>;
  notes: string[];
}

/**
 * Times the contenders against one stub process and reports wall and CPU time per request, the
 * loop overhead (time above the raw-HTTP floor, paired per iteration) and the ratios the target is about.
 */
export async function runLoopComparison(
  context: BenchContext,
  plan: LoopComparisonPlan,
): Promise<SectionOutcome> {
  const stub = await startStubProcess();
  const contenders = await plan.contenders(stub.baseUrl);
  try {
    const floor = contenders[0]!.name;
    const before = await stub.stats();
    const samples = await measureAlternating({
      contenders,
      iterations: context.iterations,
      warmup: context.warmup,
    });
    const after = await stub.stats();

    const expected = (context.iterations + context.warmup) * contenders.length * ROUND_TRIPS_PER_REQUEST;
    const served = after.requests - before.requests;
    if (served !== expected) {
      throw new Error(
        `the stub served ${served} model calls, expected ${expected}: a contender made extra calls`,
      );
    }

    const rows: ResultRow[] = [];
    const overheadWall = new Map<string, number>();
    const overheadCpu = new Map<string, number>();
    for (const { name } of contenders) {
      const own = samples.get(name)!;
      const wall = summarize(own.wallMs);
      const cpu = summarize(own.cpuMs);
      rows.push({ label: `${name} wall`, unit: "ms/request", p50: wall.p50, p95: wall.p95, n: wall.n });
      rows.push({ label: `${name} client CPU`, unit: "ms/request", p50: cpu.p50, p95: cpu.p95, n: cpu.n });
      if (name === floor) continue;
      const base = samples.get(floor)!;
      const extraWall = summarize(pairedDifferences(own.wallMs, base.wallMs));
      const extraCpu = summarize(pairedDifferences(own.cpuMs, base.cpuMs));
      rows.push({
        label: `${name} overhead wall`,
        unit: "ms/request",
        p50: extraWall.p50,
        p95: extraWall.p95,
        n: extraWall.n,
      });
      rows.push({
        label: `${name} overhead CPU`,
        unit: "ms/request",
        p50: extraCpu.p50,
        p95: extraCpu.p95,
        n: extraCpu.n,
      });
      overheadWall.set(name, extraWall.p50);
      overheadCpu.set(name, extraCpu.p50);
    }
    const stubCpuPerCall = (after.cpuMicros - before.cpuMicros) / 1000 / served;
    rows.push({ label: "stub server CPU per model call (mean)", unit: "ms", p50: stubCpuPerCall, n: served });

    const subjectWall = summarize(samples.get(plan.subject)!.wallMs).p50;
    const baselineWall = summarize(samples.get(plan.baseline)!.wallMs).p50;
    const comparisons: Comparison[] = [
      compare(
        `loop overhead ${plan.subject} / ${plan.baseline} (wall, p50)`,
        overheadWall.get(plan.subject)! / overheadWall.get(plan.baseline)!,
        OVERHEAD_TARGET,
      ),
      compare(
        `loop overhead ${plan.subject} / ${plan.baseline} (client CPU, p50)`,
        overheadCpu.get(plan.subject)! / overheadCpu.get(plan.baseline)!,
      ),
      compare(`whole request ${plan.subject} / ${plan.baseline} (wall, p50)`, subjectWall / baselineWall),
    ];
    for (const other of plan.alsoAgainst ?? []) {
      const ratio = (overhead: Map<string, number>) =>
        overhead.get(plan.subject)! / overhead.get(other.name)!;
      comparisons.push(
        compare(
          `loop overhead ${plan.subject} / ${other.name} (wall, p50)`,
          ratio(overheadWall),
          other.targetMax,
        ),
        compare(`loop overhead ${plan.subject} / ${other.name} (client CPU, p50)`, ratio(overheadCpu)),
      );
    }
    return { status: "done", rows, comparisons, notes: plan.notes };
  } finally {
    for (const contender of contenders) await contender.close?.();
    await stub.stop();
  }
}
