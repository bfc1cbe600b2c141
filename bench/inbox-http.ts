import { spawn } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";
import { DEMO_PASSWORD } from "@/lib/auth/demo-accounts";
import type { ResultRow } from "./bench-section";
import { acquireBuildLock } from "./build-lock";
import { freePort } from "./free-port";
import { spawnUntilReady } from "./idle-process";

const ROOT = path.resolve(import.meta.dirname, "..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
// A build folder of its own, so the bench never replaces the build a developer or a test uses.
const DIST_DIR = ".next/bench";
const REVIEWER_EMAIL = "rita@example.com";

let built: Promise<number> | undefined;

/**
 * `next build` into the bench's own folder, once per bench process: the sections that serve
 * the app share it (the database URL is read at start, not baked into the build). Resolves to
 * the seconds the build took, 0 when it was already there.
 */
export async function buildOnce(env: NodeJS.ProcessEnv): Promise<number> {
  if (built) {
    await built;
    return 0;
  }
  const started = performance.now();
  built = build(env).then(() => (performance.now() - started) / 1000);
  built.catch(() => {
    built = undefined;
  });
  return built;
}

async function build(env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, [NEXT_BIN, "build"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`next build exited with ${code}:\n${output.slice(-3000)}`);
}

/** Signs in through Auth.js's credentials callback, as the login form does; returns the cookie header. */
export async function signIn(origin: string, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password: DEMO_PASSWORD, callbackUrl: `${origin}/inbox` }),
  });
  await res.arrayBuffer();
  keep(res);
  if (![...jar.keys()].some((name) => name.includes("session-token")))
    throw new Error(`sign-in as ${email} gave no session cookie (status ${res.status})`);
  return cookie();
}

/** The environment the bench's app server is built and started with. */
export function serverEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: DIST_DIR,
    DATABASE_URL: databaseUrl,
    TOOLNEXUS_DEMO: "1",
    AUTH_TRUST_HOST: "true",
    AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-only-secret-bench-only-secret",
  };
}

/**
 * The production entry (`node server.mjs`, what `npm start` runs: Next plus the live streams it
 * serves beside Next, ADR 0041) on a free port of 127.0.0.1 with the bench build; stop it with
 * `stop()`.
 */
export async function startBenchServer(env: NodeJS.ProcessEnv) {
  const port = await freePort();
  const server = await spawnUntilReady(process.execPath, ["server.mjs"], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOSTNAME: "127.0.0.1" },
    ready: /toolnexus listening on/,
    timeoutMs: 60_000,
  });
  return { ...server, origin: `http://127.0.0.1:${port}` };
}

export interface InboxHttpResult {
  rows: ResultRow[];
  notes: string[];
}

/**
 * `GET /inbox` under autocannon against a production build, signed in as the demo reviewer, on
 * the database the query part seeded. Checks the page really is the reviewer's inbox before
 * and that no response failed during the load.
 */
export async function measureInboxHttp({
  databaseUrl,
  expectedTotal,
  connections,
  seconds,
  log,
}: {
  databaseUrl: string;
  expectedTotal: number;
  connections: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<InboxHttpResult> {
  const env = serverEnv(databaseUrl);
  log("  waiting for the build lock");
  const lock = await acquireBuildLock();
  try {
    log(`  next build into ${DIST_DIR}`);
    const buildSeconds = await buildOnce(env);
    const server = await startBenchServer(env);
    try {
      const { origin } = server;
      const cookie = await signIn(origin, REVIEWER_EMAIL);
      const page = await fetch(`${origin}/inbox`, { headers: { cookie }, redirect: "manual" });
      const html = await page.text();
      if (
        page.status !== 200 ||
        !html.includes("Approvals waiting for a reviewer") ||
        !html.includes(`${expectedTotal} requests`)
      )
        throw new Error(`GET /inbox as the reviewer: status ${page.status}, not the expected reviewer inbox`);
      // Warm-up: the first renders load the route's chunks and fill the query caches.
      for (let i = 0; i < 20; i++)
        await (await fetch(`${origin}/inbox`, { headers: { cookie } })).arrayBuffer();
      log(`  autocannon: ${connections} connections for ${seconds} s`);
      const result = await autocannon({
        url: `${origin}/inbox`,
        connections,
        duration: seconds,
        headers: { cookie },
      });
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
        throw new Error(
          `GET /inbox under load: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
      return {
        rows: [
          {
            label: `GET /inbox as reviewer, ${connections} connections`,
            unit: "req/s",
            p50: result.requests.average,
            n: result.requests.total,
          },
          {
            label: `GET /inbox latency under that load (p50; p95 column is p97.5)`,
            unit: "ms",
            p50: result.latency.p50,
            p95: result.latency.p97_5,
            n: result.requests.total,
          },
        ],
        notes: [
          `HTTP: next build (${buildSeconds.toFixed(0)} s) then node server.mjs (the production entry) on 127.0.0.1, signed in as ${REVIEWER_EMAIL} through the credentials callback; autocannon ${connections} connections for ${seconds} s after 20 warm-up requests; every response was 2xx. req/s is the mean over the run; autocannon reports p97.5, not p95.`,
        ],
      };
    } finally {
      await server.stop();
    }
  } finally {
    await lock.release();
  }
}
