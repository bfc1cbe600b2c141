import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The built app, served by its production entry (`node server.mjs`), that a test owns, on its own port and database, so the test
 * can stop and start it again (the shared test server cannot be restarted).
 */
export class AppProcess {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {
    mkdirSync(dataDir, { recursive: true });
  }

  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  get databaseUrl(): string {
    return `file:${path.join(this.dataDir, "app.db")}`;
  }

  /** The demo config with the tickets kept in this app's folder, as the test server has it. */
  private mcpConfig(): string {
    const demo = JSON.parse(readFileSync("mcp.demo.json", "utf8"));
    const args: string[] = demo.mcpServers.tickets.args;
    args[args.indexOf("--state") + 1] = path.join(this.dataDir, "tickets.json");
    // These journeys run no Demo Bank next to the app.
    delete demo.mcpServers.bank;
    const file = path.join(this.dataDir, "mcp.json");
    writeFileSync(file, JSON.stringify(demo));
    return file;
  }

  async start(): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // The test workers add react-server conditions for lib/db; the app must not have them.
      NODE_OPTIONS: process.env.E2E_CALLER_NODE_OPTIONS ?? "",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(this.port),
      DATABASE_URL: this.databaseUrl,
      AUTH_SECRET: "e2e-only-auth-secret-not-for-production-000000",
      TOOLNEXUS_DEMO: "1",
      TOOLNEXUS_MODEL_PROVIDER: "demo",
      TOOLNEXUS_APP_URL: this.origin,
      TOOLNEXUS_MCP_CONFIG: this.mcpConfig(),
      TOOLNEXUS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      // The proxy in front of these instances runs on this machine.
      TOOLNEXUS_TRUSTED_PROXIES: "127.0.0.1, ::1",
    };
    // A process group of its own, so stopping it also stops the MCP server it started.
    this.child = spawn("node", ["server.mjs"], {
      env,
      stdio: "ignore",
      detached: true,
    });
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`the app exited with ${this.child.exitCode}`);
      const ok = await fetch(`${this.origin}/login`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error("the app did not start within 60 s");
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child?.pid || child.exitCode !== null) return;
    const exited = once(child, "exit");
    const pid = child.pid;
    process.kill(-pid, "SIGTERM");
    // A graceful stop that hangs becomes a kill, so one stuck shutdown cannot hold the suite.
    const fallback = setTimeout(() => process.kill(-pid, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(fallback);
    // The port must be free for the next start.
    while (
      await fetch(`${this.origin}/login`).then(
        () => true,
        () => false,
      )
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
