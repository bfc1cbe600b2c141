import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

const PROBE = path.resolve(import.meta.dirname, "heap-probe.cjs");

export interface HeapReport {
  before: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
}

/** `env` for a server that answers `heapAfterGc` (see heap-probe.cjs), and where its answers go. */
export function withHeapProbe(
  env: NodeJS.ProcessEnv,
  name: string,
): { env: NodeJS.ProcessEnv; file: string } {
  const file = path.join(os.tmpdir(), `toolnexus-bench-heap-${process.pid}-${name}.json`);
  const options = [env.NODE_OPTIONS, `--require ${PROBE}`].filter(Boolean).join(" ");
  return { env: { ...env, NODE_OPTIONS: options, BENCH_HEAP_PROBE_FILE: file }, file };
}

/** Makes the server at `pid` collect all its garbage and report its memory before and after. */
export async function heapAfterGc(pid: number, file: string): Promise<HeapReport> {
  await rm(file, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let waited = 0; waited < 60_000; waited += 100) {
    await delay(100);
    const text = await readFile(file, "utf8").catch(() => "");
    if (text) {
      await rm(file, { force: true });
      const report = JSON.parse(text) as HeapReport & { pid: number };
      if (report.pid === pid) return report;
    }
  }
  throw new Error(`the server (pid ${pid}) gave no heap report within 60 s`);
}
