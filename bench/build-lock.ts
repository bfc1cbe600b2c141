import { spawn } from "node:child_process";
import { once } from "node:events";

const LOCK_FILE = "/tmp/tn-next-build.lock";

/**
 * Holds the machine's Next.js build lock until `release()`: `flock` keeps it for as long as
 * the `cat` it runs is alive, and `cat` lives until its stdin closes. Held for the build and
 * for the server run, so no other build rewrites files the server is reading.
 */
export async function acquireBuildLock(): Promise<{ release(): Promise<void> }> {
  const holder = spawn("flock", [LOCK_FILE, "-c", "echo locked; exec cat"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("locked")) resolve();
    });
    holder.once("exit", (code) => reject(new Error(`flock exited with ${code} before taking the lock`)));
  });
  return {
    async release() {
      if (holder.exitCode !== null || holder.signalCode !== null) return;
      const gone = once(holder, "exit");
      holder.stdin.end();
      await gone;
    },
  };
}
