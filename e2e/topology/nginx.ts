import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * How long nginx leaves an upstream alone after one failed attempt. A rolling restart must let
 * it pass once a restarted instance is ready, or stopping the next one leaves no live upstream.
 */
export const UPSTREAM_FAIL_TIMEOUT_MS = 2_000;

/** Debian's nginx, run with the repository's deploy/nginx.conf filled in for local ports. */
export async function startNginx({
  dir,
  port,
  upstreamPorts,
}: {
  dir: string;
  port: number;
  upstreamPorts: number[];
}): Promise<{ url: string; stop: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const values: Record<string, string> = {
    PREFIX: dir,
    LISTEN: String(port),
    UPSTREAMS: upstreamPorts
      .map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=${UPSTREAM_FAIL_TIMEOUT_MS / 1000}s;`)
      .join("\n    "),
  };
  const template = readFileSync(path.join(process.cwd(), "deploy/nginx.conf"), "utf8");
  const config = template.replace(/\$\{([A-Z]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/nginx.conf: no value for \${${name}}`);
    return value;
  });
  const file = path.join(dir, "nginx.conf");
  writeFileSync(file, config);

  const binary = process.env.E2E_NGINX || "/usr/sbin/nginx";
  const child: ChildProcess = spawn(
    binary,
    ["-c", file, "-p", dir, "-e", path.join(dir, "error.log"), "-g", "daemon off;"],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    try {
      await fetch(`${url}/login`, { redirect: "manual" });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        // SIGTERM is nginx's fast shutdown; SIGQUIT would wait for the open event streams.
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
