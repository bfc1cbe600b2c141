// From a fresh clone to a running app in one command (`npm run quickstart`): install the locked
// dependencies when needed, migrate the embedded database, seed the demo accounts, build, then
// serve the app on PORT (3000) next to the local demo OAuth provider and the local mail
// catcher. Plain Node on purpose: it has to run before anything is installed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

// The app starts the project's demo MCP server (a ticket tracker) and connects the Demo Bank's
// MCP server (each user signs in to it) from this config file; set
// TOOLNEXUS_MCP_CONFIG to use your own servers instead, or empty for none.
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  TOOLNEXUS_MCP_CONFIG: process.env.TOOLNEXUS_MCP_CONFIG ?? "mcp.demo.json",
};
const port = env.PORT || "3000";
env.PORT = port;
// Email goes to the project's local mail catcher (listed at /demo/mail), so it works offline,
// unless an SMTP server is configured. The Demo Bank's MCP server and its sign-in run on this
// machine, so outbound calls may reach it (and webhook receivers here too).
const catchMail = !env.TOOLNEXUS_SMTP_URL;
if (catchMail) {
  env.MAIL_CATCHER_PORT ||= "2525";
  env.TOOLNEXUS_SMTP_URL = `smtp://127.0.0.1:${env.MAIL_CATCHER_PORT}`;
  env.TOOLNEXUS_MAIL_CATCHER_FILE ||= "data/mail-catcher.jsonl";
}
env.TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE ??= "1";

function step(title, command, args) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`\n✖ ${title} failed (${command} ${args.join(" ")}).`);
    process.exit(result.status ?? 1);
  }
}

function installIsCurrent() {
  const marker = "node_modules/.package-lock.json";
  return existsSync(marker) && statSync(marker).mtimeMs >= statSync("package-lock.json").mtimeMs;
}

if (!installIsCurrent())
  step("Installing dependencies from package-lock.json", "npm", ["ci", "--no-audit", "--no-fund"]);
// The generated Prisma clients are not committed; an install creates them, so does this.
if (!existsSync("lib/generated/sqlite"))
  step("Generating the database clients", "npm", ["run", "--silent", "db:generate"]);
step("Migrating the database", "npm", ["run", "--silent", "db:migrate"]);
step("Creating the demo accounts", "npm", ["run", "--silent", "db:seed"]);
step("Building the app", "npx", ["next", "build"]);

// Each server gets a process group of its own, so stopping it also stops what npx started.
const serve = (command, args) => spawn(command, args, { stdio: "inherit", env, detached: true });
const children = [
  serve("npx", ["tsx", "scripts/demo-oauth-provider.ts"]),
  ...(catchMail ? [serve("npx", ["tsx", "scripts/mail-catcher.ts"])] : []),
  serve("node", ["server.mjs"]),
];
// Should this launcher die without stopping them (kill -9), the watch stops the servers.
spawn(
  process.execPath,
  ["scripts/orphan-watch.mjs", String(process.pid), ...children.map((child) => String(child.pid))],
  {
    stdio: "ignore",
    detached: true,
  },
).unref();
console.log(`\n✔ toolnexus is starting on http://localhost:${port} (Ctrl+C to stop)`);
if (catchMail) console.log(`  Email is caught locally: see http://localhost:${port}/demo/mail`);
if (env.TOOLNEXUS_MCP_CONFIG)
  console.log(`  MCP servers from ${env.TOOLNEXUS_MCP_CONFIG} (see /admin/tools)`);
console.log("");

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  process.exitCode = code;
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0));
// Either server ending takes the other down, so nothing is left running half-configured.
for (const child of children) child.on("exit", (code) => stopAll(code ?? 0));
