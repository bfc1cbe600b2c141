import { parseCliOptions } from "./cli-options";
import { formatResults } from "./format-results";
import { runBench } from "./run-bench";
import { sections } from "./sections";

const options = parseCliOptions(process.argv.slice(2));
if (options.list) {
  for (const section of sections) console.log(`${section.name.padEnd(18)} ${section.title}`);
} else {
  const results = await runBench({ ...options, sections, log: (line) => console.error(line) });
  console.log(formatResults(results));
  console.log(`\nwritten to ${options.out}`);
  if (results.sections.some((s) => s.status === "failed")) process.exitCode = 1;
}
