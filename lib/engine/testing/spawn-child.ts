import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");

export interface Child {
  process: ChildProcess;
  /** Resolves with the first stdout line matching `pattern`; rejects if the child exits first. */
  waitFor(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
  output(): string;
  /** Writes one line to the child's stdin. */
  send(line: string): void;
  /** Calls `listener` with every complete stdout line from now on, as it arrives. */
  onLine(listener: (line: string) => void): void;
}

const running = new Set<ChildProcess>();

/** Kills whatever a failed test left running, so no child outlives the test file. */
export function killEngineChildren(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

/** Starts `engine-child.ts` (or another `script` of this folder) as a real separate Node process. */
export function spawnEngineChild(env: Record<string, string>, script = "engine-child.ts"): Child {
  // Node itself, with tsx as a loader: a SIGKILL then hits the process that runs the engine,
  // not a launcher in front of it.
  const args = ["--import", "tsx", "--conditions=react-server", `lib/engine/testing/${script}`];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  // A child killed mid-write must not take the test down with EPIPE.
  child.stdin!.on("error", () => {});
  running.add(child);
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const line = stdout.split("\n").find((candidate) => waiter.pattern.test(candidate));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  const lineListeners: ((line: string) => void)[] = [];
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    stdout += text;
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) for (const listener of lineListeners) listener(line);
    check();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on("exit", (code) => {
      running.delete(child);
      for (const waiter of waiters.splice(0)) {
        waiter.reject(new Error(`child exited (${code}) before ${waiter.pattern}:\n${stdout}\n${stderr}`));
      }
      resolve(code);
    });
  });
  return {
    process: child,
    exited,
    output: () => `${stdout}\n${stderr}`,
    onLine: (listener) => {
      lineListeners.push(listener);
    },
    send: (line) => {
      if (child.exitCode === null && !child.killed) child.stdin!.write(`${line}\n`);
    },
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve, reject });
        check();
      }),
  };
}
