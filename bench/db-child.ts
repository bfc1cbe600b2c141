import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULT_PREFIX = "BENCH_RESULT ";

/**
 * Runs a bench script in a Node process of its own. The database layer is server-only, so
 * anything that touches it runs under the `react-server` condition, which the bench runner
 * itself (plain tsx, or vitest in the smoke test) does not have. A separate process also keeps
 * its memory and event loop out of the other sections' figures.
 */
export async function runDbChild<T>({
  script,
  params,
  nodeArgs = [],
  env = {},
  log,
  timeoutMs = 30 * 60_000,
}: {
  /** Path relative to the repository root. */
  script: string;
  params: unknown;
  nodeArgs?: string[];
  env?: Record<string, string>;
  log?: (line: string) => void;
  timeoutMs?: number;
}): Promise<T> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, "--conditions=react-server", "--import", "tsx", path.join(ROOT, script)],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", BENCH_PARAMS: JSON.stringify(params), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    stderr += text;
    for (const line of text.split("\n")) if (line.startsWith("bench: ")) log?.(`  ${line.slice(7)}`);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  const line = stdout.split("\n").find((candidate) => candidate.startsWith(RESULT_PREFIX));
  if (code !== 0 || line === undefined) {
    throw new Error(`${script} exited with ${code} without a result:\n${stderr.slice(-3000)}`);
  }
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as T;
}

const cleanups: (() => Promise<void>)[] = [];
let failing = false;

// A top-level await that rejects arrives here too. Whatever the child created (a PostgreSQL
// database, a temp directory) is removed before the process ends with the error.
function failAfterCleanup(error: unknown): void {
  // A child drops its PostgreSQL database WITH (FORCE) when it is done; a pool's idle connection
  // that is still open then reports "terminating connection due to administrator command"
  // (57P01) as an error event with no query waiting on it. That is the drop, not a failure: a
  // query that still needed the database would fail on its own.
  if ((error as { code?: unknown } | null)?.code === "57P01") return;
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  if (failing) return;
  failing = true;
  void Promise.allSettled(cleanups.map((cleanup) => cleanup())).finally(() => process.exit(1));
}

/** The child's side: its parameters, progress lines for the parent's log, and its one result. */
export const childIo = {
  /** Runs `cleanup` if the child fails; on success the child cleans up itself before `finish`. */
  cleanUpOnFailure(cleanup: () => Promise<void>): void {
    if (cleanups.length === 0) process.on("uncaughtException", failAfterCleanup);
    cleanups.push(cleanup);
  },
  params<T>(): T {
    return JSON.parse(process.env.BENCH_PARAMS ?? "null") as T;
  },
  progress(line: string): void {
    process.stderr.write(`bench: ${line}\n`);
  },
  /** Writes the result and ends the process, whatever pools or timers are still open. */
  finish(result: unknown): Promise<never> {
    return new Promise(() => {
      process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`, () => process.exit(0));
    });
  },
};
