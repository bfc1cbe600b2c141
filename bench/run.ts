import { parseCliOptions } from "./cli-options";
import { formatResults } from "./format-results";
import { runBench } from "./run-bench";
import { sections } from "./sections";

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.list) {
    for (const section of sections) console.log(`${section.name.padEnd(18)} ${section.title}`);
    return 0;
  }
  const results = await runBench({ ...options, sections, log: (line) => console.error(line) });
  console.log(formatResults(results));
  console.log(`\nwritten to ${options.out}`);
  return results.sections.some((s) => s.status === "failed") ? 1 : 0;
}

// Usage mistakes print one clear line, not a stack trace; failures inside a section are in the table.
main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
  },
);
