import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { processTreeRssBytes } from "./process-rss";
import { summarize } from "./stats";

export interface IdleProcess {
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a process and resolves once a line of its stdout matches `ready`. */
export async function spawnUntilReady(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; timeoutMs: number },
): Promise<IdleProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (options.ready.test(output)) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("exit", (code) =>
      reject(new Error(`${command} exited with ${code} before it was ready:\n${output.slice(-2000)}`)),
    );
    setTimeout(
      () =>
        reject(new Error(`${command} was not ready after ${options.timeoutMs} ms:\n${output.slice(-2000)}`)),
      options.timeoutMs,
    ).unref();
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = once(child, "exit");
    child.kill("SIGTERM");
    await gone;
  };
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, stop };
}

/**
 * RSS once the process has been left alone: a settle period lets startup garbage be collected,
 * then a few samples a moment apart give a median that one allocation burst cannot skew.
 */
export async function restingRssMb(
  pid: number,
  settleMs = 2000,
  samples = 5,
): Promise<{ p50: number; n: number }> {
  await delay(settleMs);
  const values: number[] = [];
  for (let i = 0; i < samples; i++) {
    values.push((await processTreeRssBytes(pid)) / 1024 / 1024);
    await delay(200);
  }
  const summary = summarize(values);
  return { p50: summary.p50, n: summary.n };
}
