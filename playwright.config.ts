import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_AUTH_SECRET } from "./e2e/topology/app-instance";

const PORT = Number(process.env.E2E_PORT || 3310);
const OAUTH_PORT = PORT + 1;
const MAIL_PORT = PORT + 2;
const baseURL = `http://localhost:${PORT}`;

// One fresh database per `playwright test` run. This file is evaluated again in every worker;
// the workers inherit these variables from the runner, so all of them share the server's file.
// The server script creates the directory, so merely listing the tests leaves nothing behind.
process.env.E2E_DATA_DIR ||= path.join(tmpdir(), `toolnexus-e2e-${process.pid}-${Date.now().toString(36)}`);
process.env.E2E_DATABASE_URL ||= `file:${path.join(process.env.E2E_DATA_DIR, "e2e.db")}`;

// Fixtures reach the database through lib/db, which is marked server-only; the test workers
// resolve that marker the way Next's server does. The app server keeps the caller's options.
const callerNodeOptions = process.env.E2E_CALLER_NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? "";
process.env.E2E_CALLER_NODE_OPTIONS = callerNodeOptions;
process.env.NODE_OPTIONS = `${callerNodeOptions} --conditions=react-server`.trim();

const serverEnv: Record<string, string> = {
  E2E_DATA_DIR: process.env.E2E_DATA_DIR,
  NODE_OPTIONS: callerNodeOptions,
  NEXT_TELEMETRY_DISABLED: "1",
  PORT: String(PORT),
  DATABASE_URL: process.env.E2E_DATABASE_URL,
  // The session-cookie fixture signs its cookies with the same secret.
  AUTH_SECRET: E2E_AUTH_SECRET,
  TOOLNEXUS_DEMO: "1",
  TOOLNEXUS_MODEL_PROVIDER: "demo",
  // Slow enough that a reply is still streaming when a test reloads; fast enough for every journey.
  TOOLNEXUS_DEMO_DELTA_MS: "100",
  TOOLNEXUS_APP_URL: baseURL,
  // A reviewer's "I'm on it" lapses after this long, so a journey can watch one lapse.
  TOOLNEXUS_TAKE_SECONDS: "15",
  // The Undo window (ADR 0080) is off for the journeys, which each wait on decisions taking effect.
  // e2e/decision-undo.spec.ts starts an instance of its own with the window on (ADR 0092).
  TOOLNEXUS_HOLD_SECONDS: "0",
  OAUTH_DEMO_ISSUER: `http://localhost:${OAUTH_PORT}`,
  // The Demo Bank's MCP server and its sign-in, the journeys' MCP servers and webhook receivers
  // all listen on this machine: the outbound address policy must allow it (ADR 0056).
  TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE: "1",
  // Email goes to the project's mail catcher, which keeps it in this run's folder (/demo/mail).
  TOOLNEXUS_SMTP_URL: `smtp://127.0.0.1:${MAIL_PORT}`,
  // Where the built-in tools work once an admin switches them on; the journey creates it.
  TOOLNEXUS_WORKSPACE: path.join(process.env.E2E_DATA_DIR, "workspace"),
  TOOLNEXUS_MAIL_CATCHER_FILE: path.join(process.env.E2E_DATA_DIR, "caught-mail.jsonl"),
  MAIL_CATCHER_PORT: String(MAIL_PORT),
};

export default defineConfig({
  testDir: "./e2e",
  // Each run empties its output folder first; parallel runs in one checkout need their own.
  outputDir: process.env.E2E_OUTPUT_DIR || "test-results",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's chromium: browsers cannot be downloaded on these machines.
      executablePath: process.env.E2E_CHROMIUM || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // Every journey runs on a desktop; the main ones, tagged `@phone` in their titles (chat park and
  // answer, a request page's answer, the inbox's approvals, signing in), run again on a phone.
  // `@phone-only` marks the checks of the phone layout itself.
  projects: [
    {
      name: "chromium",
      grepInvert: /@phone-only/,
      use: { ...devices["Desktop Chrome"], channel: undefined },
    },
    {
      name: "phone",
      grep: /@phone/,
      use: {
        ...devices["Desktop Chrome"],
        channel: undefined,
        viewport: { width: 390, height: 844 },
        screen: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        userAgent: devices["Pixel 5"].userAgent,
      },
    },
  ],
  webServer: [
    {
      // Built once per run (E2E_SKIP_BUILD=1 reuses the last build), then migrated, seeded, served.
      command: "node scripts/serve-e2e.mjs",
      url: `${baseURL}/login`,
      env: serverEnv,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: "npx tsx scripts/mail-catcher.ts",
      port: MAIL_PORT,
      env: serverEnv,
      timeout: 60_000,
      reuseExistingServer: false,
    },
    {
      command: "npx tsx scripts/demo-oauth-provider.ts",
      url: `http://localhost:${OAUTH_PORT}/.well-known/openid-configuration`,
      env: { ...serverEnv, OAUTH_DEMO_PORT: String(OAUTH_PORT) },
      timeout: 60_000,
      reuseExistingServer: false,
    },
  ],
});
