import { existsSync } from "node:fs";
import path from "node:path";
import type { BenchSection, ResultRow } from "./bench-section";
import { freePort } from "./free-port";
import { restingRssMb, spawnUntilReady } from "./idle-process";

const ROOT = path.resolve(import.meta.dirname, "..");
const READY = /^ready$/m;

// Both library probes load TypeScript through the same tsx loader, so the difference between them
// is what toolnexus itself costs a host process.
const BARE_PROBE = `process.stdout.write("ready\\n"); setInterval(() => {}, 1 << 30);`;
// zod is the library's one heavy runtime dependency (the HTTP wire formats validate replies with it).
const ZOD_PROBE = `await import("zod"); ${BARE_PROBE}`;
const LIBRARY_PROBE = `
const { createClient, createToolkit, defineTool } = await import("toolnexus");
const tool = defineTool({ name: "noop", description: "d", run: () => "ok" });
globalThis.keep = [
  await createToolkit({ extraTools: [tool] }),
  createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m", apiKey: "k" }),
];
process.stdout.write("ready\\n");
setInterval(() => {}, 1 << 30);`;

async function probeRss(label: string, code: string, smoke: boolean): Promise<ResultRow> {
  const probe = await spawnUntilReady(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", code],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production" },
      ready: READY,
      timeoutMs: 30_000,
    },
  );
  try {
    const rss = smoke ? await restingRssMb(probe.child.pid!, 0, 1) : await restingRssMb(probe.child.pid!);
    return { label, unit: "MB RSS", p50: rss.p50, n: rss.n };
  } finally {
    await probe.stop();
  }
}

async function serverRss(): Promise<{ row: ResultRow; note: string } | { skipped: string }> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    return {
      skipped: "web server at rest: skipped, there is no production build (run `npm run build` first)",
    };
  }
  const port = await freePort();
  const server = await spawnUntilReady(
    process.execPath,
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        AUTH_TRUST_HOST: "true",
        AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-only-secret-bench-only-secret",
      },
      ready: /Ready in/,
      timeoutMs: 60_000,
    },
  );
  try {
    // A few requests first: "at rest" means after the routes have loaded, not a cold process.
    // Signed out, `/` redirects towards sign-in; following the redirects loads those pages too.
    const origin = `http://127.0.0.1:${port}`;
    const statuses = new Map<string, number>();
    const hit = async (url: string) => {
      const res = await fetch(url, { redirect: "manual" });
      await res.arrayBuffer();
      const key = `${new URL(url).pathname} ${res.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      return res.headers.get("location");
    };
    for (let i = 0; i < 20; i++) {
      let location = await hit(`${origin}/`);
      for (let hop = 0; location && hop < 3; hop++)
        location = await hit(new URL(location, origin).toString());
    }
    const rss = await restingRssMb(server.child.pid!);
    const seen = [...statuses].map(([key, count]) => `${count} x ${key}`).join(", ");
    return {
      row: { label: "web server (next start) at rest", unit: "MB RSS", p50: rss.p50, n: rss.n },
      note: `web server warmed before sampling: ${seen}`,
    };
  } finally {
    await server.stop();
  }
}

/** Results 5 in docs/benchmarks.md (at rest): what a host pays before any run is parked. */
export const memoryAtRestSection: BenchSection = {
  name: "memory-at-rest",
  title: "Memory at rest",
  async run({ smoke }) {
    const bare = await probeRss("node + tsx, idle", BARE_PROBE, smoke);
    const zod = await probeRss("node + tsx + zod, idle", ZOD_PROBE, smoke);
    const library = await probeRss("node + tsx + toolnexus client and toolkit, idle", LIBRARY_PROBE, smoke);
    const rows: ResultRow[] = [
      bare,
      zod,
      library,
      { label: "toolnexus share (library - bare)", unit: "MB RSS", p50: library.p50 - bare.p50, n: 1 },
      { label: "of which zod (zod - bare)", unit: "MB RSS", p50: zod.p50 - bare.p50, n: 1 },
    ];
    const notes = [
      smoke
        ? "smoke run: one RSS sample, taken at once"
        : "RSS is the median of 5 samples 200 ms apart, taken 2 s after the process reported ready.",
    ];
    const server = smoke ? { skipped: "web server at rest: not started in a smoke run" } : await serverRss();
    if ("row" in server) {
      rows.push(server.row);
      notes.push(server.note);
    } else notes.push(server.skipped);
    return { status: "done", rows, comparisons: [], notes };
  },
};
