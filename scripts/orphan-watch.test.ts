import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// The watch scripts/quickstart.mjs starts beside its servers, each in a process group of its
// own: a launcher killed with -9 must not leave them running.
const watch = path.resolve(import.meta.dirname, "orphan-watch.mjs");

const exists = (id: number) => {
  try {
    process.kill(id, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

async function until(condition: () => boolean, what: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const started: number[] = [];
afterEach(() => {
  for (const group of started.splice(0)) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
});

/** A process that stands for one server: its own group, running until it is signalled. */
function fakeServer(): ChildProcess {
  const server = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    detached: true,
    stdio: "ignore",
  });
  started.push(server.pid!);
  return server;
}

describe("the quickstart's orphan watch", () => {
  it("stops every server's group once the launcher is killed with -9", async () => {
    // A launcher as quickstart.mjs is one: servers in groups of their own, the watch beside them.
    const launcher = spawn(
      process.execPath,
      [
        "-e",
        `const { spawn } = require("node:child_process");
        const servers = [1, 2].map(() => spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" }));
        spawn(process.execPath, [${JSON.stringify(watch)}, String(process.pid), ...servers.map((s) => String(s.pid))], { detached: true, stdio: "ignore" }).unref();
        console.log(servers.map((s) => s.pid).join(" "));
        setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const line = await new Promise<string>((resolve) =>
      launcher.stdout!.once("data", (chunk) => resolve(String(chunk))),
    );
    const servers = line.trim().split(" ").map(Number);
    started.push(...servers);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(servers.every((pid) => exists(-pid))).toBe(true);
    launcher.kill("SIGKILL");
    await until(() => servers.every((pid) => !exists(-pid)), "the servers did not stop");
  });

  it("leaves the servers alone while the launcher lives, and ends once they have", async () => {
    const server = fakeServer();
    const watcher = spawn(process.execPath, [watch, String(process.pid), String(server.pid)], {
      stdio: "ignore",
    });
    const ended = new Promise<number | null>((resolve) => watcher.once("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(exists(-server.pid!)).toBe(true);
    expect(watcher.exitCode).toBeNull();
    server.kill("SIGTERM");
    expect(await ended).toBe(0);
  });

  it("refuses to start without a launcher and at least one group", async () => {
    const watcher = spawn(process.execPath, [watch, String(process.pid)], { stdio: "ignore" });
    expect(await new Promise((resolve) => watcher.once("exit", resolve))).toBe(2);
  });
});
