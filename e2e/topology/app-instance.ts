import { type ChildProcess, spawn } from "node:child_process";

/** One instance of the built app (the production entry, `node server.mjs`), in its own process group. */
export interface AppInstance {
  readonly port: number;
  /** Waits until the server answers HTTP (any status); callers that must send nothing skip it. */
  ready(): Promise<void>;
  /** SIGTERM lets the process hand its runs over; SIGKILL is a crash. Resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export const E2E_AUTH_SECRET = "e2e-only-auth-secret-not-for-production-000000";

/** Starts the app as production does, with the e2e build (NEXT_DIST_DIR is inherited). */
export function startAppInstance({ port, env }: { port: number; env: Record<string, string> }): AppInstance {
  const child: ChildProcess = spawn("node", ["server.mjs"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      // The test workers run with react-server conditions; the app must not.
      NODE_OPTIONS: process.env.E2E_CALLER_NODE_OPTIONS ?? "",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      AUTH_SECRET: E2E_AUTH_SECRET,
      TOOLNEXUS_DEMO: "1",
      TOOLNEXUS_MODEL_PROVIDER: "demo",
      // The demo config's remote MCP server is on this machine (ADR 0056).
      TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE: "1",
      ...env,
    },
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  return {
    port,
    async ready() {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`the app on port ${port} exited:\n${output}`);
        try {
          await fetch(`http://127.0.0.1:${port}/login`, { redirect: "manual" });
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      throw new Error(`the app on port ${port} did not start in time:\n${output}`);
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
      process.kill(-child.pid, signal);
      // A graceful stop that hangs (an open stream keeping the server up) becomes a kill.
      const pid = child.pid;
      const fallback = setTimeout(() => process.kill(-pid, "SIGKILL"), 15_000);
      await exited;
      clearTimeout(fallback);
    },
  };
}
