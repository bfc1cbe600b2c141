import type { BenchResults } from "./run-bench";

const number = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? "-" : value >= 100 ? value.toFixed(0) : value.toFixed(3);

/** The human-readable table `npm run bench` prints; bench/results.json holds the same figures. */
export function formatResults(results: BenchResults): string {
  const { machine } = results;
  const lines = [
    `toolnexus bench, ${results.startedAt}: Node ${machine.node}, ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGb} GB`,
    `iterations ${results.iterations}, warm-up ${results.warmup}; figures are medians (p50) and p95`,
    `1-minute load average: ${results.loadAverage.start.toFixed(1)} at start, ${results.loadAverage.end.toFixed(1)} at the end`,
  ];
  for (const section of results.sections) {
    lines.push("", `## ${section.title} [${section.name}, ${(section.durationMs / 1000).toFixed(1)} s]`);
    if (section.status === "skipped") {
      lines.push(`skipped: ${section.reason}`);
      continue;
    }
    if (section.status === "failed") {
      lines.push(`FAILED: ${section.error}`);
      continue;
    }
    const width = Math.max(...section.rows.map((r) => r.label.length), 10);
    lines.push(`${"".padEnd(width)}  ${"p50".padStart(9)}  ${"p95".padStart(9)}  unit`);
    for (const row of section.rows) {
      lines.push(
        `${row.label.padEnd(width)}  ${number(row.p50).padStart(9)}  ${number(row.p95).padStart(9)}  ${row.unit} (n=${row.n})`,
      );
    }
    for (const c of section.comparisons) {
      const target =
        c.targetMax === undefined ? "" : `  target <= ${c.targetMax}: ${c.met ? "met" : "MISSED"}`;
      lines.push(`${c.label}: ${c.value.toFixed(2)}x${target}`);
    }
    for (const note of section.notes) lines.push(`note: ${note}`);
  }
  return lines.join("\n");
}
