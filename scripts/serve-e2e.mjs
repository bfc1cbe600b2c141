// The end-to-end test server: build (unless E2E_SKIP_BUILD=1), migrate the run's fresh
// database, seed the demo accounts, then serve. Plain Node so it needs nothing but npm's bin.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(" ")} failed with ${result.status ?? result.signal}`);
    process.exit(1);
  }
}

if (process.env.E2E_SKIP_BUILD !== "1") {
  // Next refuses a second concurrent build of the same tree; E2E_BUILD_LOCK names a lock file
  // to wait on instead of failing.
  const lock = process.env.E2E_BUILD_LOCK;
  if (lock) run("flock", [lock, "npx", "next", "build"]);
  else run("npx", ["next", "build"]);
}
if (process.env.E2E_DATA_DIR) mkdirSync(process.env.E2E_DATA_DIR, { recursive: true });

// The demo MCP server as the quick start has it, keeping its tickets in this run's data folder
// so the browser tests never touch the demo's own.
if (process.env.E2E_DATA_DIR && process.env.TOOLNEXUS_MCP_CONFIG === undefined) {
  const demo = JSON.parse(readFileSync("mcp.demo.json", "utf8"));
  const tickets = demo.mcpServers.tickets;
  const state = tickets.args.indexOf("--state");
  tickets.args[state + 1] = path.join(process.env.E2E_DATA_DIR, "demo-tickets.json");
  // The Demo Bank's MCP server lives in the demo provider, which the harness runs elsewhere.
  if (process.env.OAUTH_DEMO_ISSUER) demo.mcpServers.bank.url = `${process.env.OAUTH_DEMO_ISSUER}/mcp`;
  const file = path.join(process.env.E2E_DATA_DIR, "mcp.json");
  writeFileSync(file, JSON.stringify(demo, null, 2));
  process.env.TOOLNEXUS_MCP_CONFIG = file;
}
run("npx", ["prisma", "migrate", "deploy"]);
run("npm", ["run", "--silent", "db:seed"]);

// The production server entry, so the browser tests go through its forwarded-header handling.
const server = spawn("node", ["server.mjs"], {
  stdio: "inherit",
  env: { ...process.env, PORT: process.env.PORT ?? "3310" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
