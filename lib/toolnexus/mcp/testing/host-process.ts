import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Answer, RunResult } from "../../types";
import type { McpServerStatus } from "../hub";
import type { PlannedCall } from "./scripted-client";
import { repoRoot } from "./servers";

const child = path.join(import.meta.dirname, "durable-mcp-child.ts");

export interface HostReport {
  result: RunResult;
  pid: number;
  status: McpServerStatus[];
}

export interface HostProcess {
  report: HostReport;
  /** SIGKILL: no cleanup runs, as in a crash. */
  kill(): Promise<void>;
  exited(): Promise<number | null>;
}

/** Runs (no answers) or resumes (answers) a run in a fresh Node process; see durable-mcp-child.ts. */
export function startHost(options: {
  mcpConfig: unknown;
  calls: PlannedCall[];
  stateFile: string;
  reportFile: string;
  answers?: Answer[];
}): Promise<HostProcess> {
  const args = [
    "--import",
    "tsx",
    child,
    JSON.stringify(options.mcpConfig),
    JSON.stringify(options.calls),
    options.stateFile,
    options.reportFile,
    ...(options.answers ? [JSON.stringify(options.answers)] : []),
  ];
  const proc = spawn(process.execPath, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exit = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The host did not get ready: ${stderr}`)), 60_000);
    proc.stdout.on("data", (chunk) => {
      if (!String(chunk).includes("ready")) return;
      clearTimeout(timer);
      resolve({
        report: JSON.parse(readFileSync(options.reportFile, "utf8")) as HostReport,
        kill: async () => {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
          await exit;
        },
        exited: () => exit,
      });
    });
    exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The host exited (${code}) before it was ready: ${stderr}`));
    });
  });
}
