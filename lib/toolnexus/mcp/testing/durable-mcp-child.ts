// A host process for the restart tests: it runs (or resumes) one run whose model calls MCP
// tools, stores the checkpoint, reports the result and, while the run is parked, stays alive
// with its MCP calls open until the test kills it.
//   <mcpConfigJson> <callsJson> <stateFile> <reportFile> [answersJson]
import { readFileSync, writeFileSync } from "node:fs";
import { createToolkit } from "../../toolkit";
import type { Answer, Checkpoint } from "../../types";
import { clientCalling } from "./scripted-client";

const [config, calls, stateFile, reportFile, answers] = process.argv.slice(2);
if (!config || !calls || !stateFile || !reportFile)
  throw new Error("usage: <config> <calls> <state> <report> [answers]");

const toolkit = await createToolkit({ builtins: false, mcpConfig: JSON.parse(config) });
const client = clientCalling(JSON.parse(calls));
const onCheckpoint = (checkpoint: Checkpoint) => writeFileSync(stateFile, JSON.stringify(checkpoint));
const result = answers
  ? await client.resume(
      JSON.parse(readFileSync(stateFile, "utf8")) as Checkpoint,
      JSON.parse(answers) as Answer[],
      { toolkit, onCheckpoint },
    )
  : await client.run("go", { toolkit, onCheckpoint });
writeFileSync(reportFile, JSON.stringify({ result, pid: process.pid, status: toolkit.mcpStatus() }));
process.stdout.write("ready\n");
if (result.status !== "pending") {
  await toolkit.close();
} else {
  // Parked: the open calls live as long as this process does.
  setInterval(() => {}, 60_000);
}
