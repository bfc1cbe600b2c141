import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// The real thing: a node:http server in its own process, sent a real SIGTERM.
const script = path.join(import.meta.dirname, "server-draining.fixture.mjs");
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

async function startServer(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  const { port } = JSON.parse(line.toString()) as { port: number };
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, port, exited };
}

/** One GET on a keep-alive agent; resolves with the status, the headers and the whole body. */
function get(port: number, pathname: string, agent?: http.Agent) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: pathname, ...(agent ? { agent } : {}) }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            body += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          res.on("error", reject);
        })
        .on("error", reject);
    },
  );
}

describe("drainOnTerminate", () => {
  it("on SIGTERM ends the streams at once, finishes the response under way, refuses new connections and exits 143", async () => {
    const server = await startServer({ SLOW_MS: "800" });
    const agent = new http.Agent({ keepAlive: true });
    // A keep-alive connection that has served one response and sits idle in the pool.
    expect((await get(server.port, "/", agent)).body).toBe("ok");

    let streamEndedAt = 0;
    const stream = get(server.port, "/stream").then((reply) => {
      streamEndedAt = Date.now();
      return reply;
    });
    const slow = get(server.port, "/slow", agent);
    await new Promise((resolve) => setTimeout(resolve, 150));

    const signalledAt = Date.now();
    server.child.kill("SIGTERM");

    const streamed = await stream;
    expect(streamed.body).toContain("event: open");
    expect(streamEndedAt - signalledAt).toBeLessThan(500);

    const finished = await slow;
    expect(finished.body).toBe("slow done, draining=true");
    expect(finished.headers.connection).toBe("close");

    await expect(get(server.port, "/")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(await server.exited).toBe(143);
    // Exited when the last response was done, not at the grace period's end.
    expect(Date.now() - signalledAt).toBeLessThan(3_000);
    agent.destroy();
  });

  it("cuts what still runs when the grace period ends", async () => {
    const server = await startServer({ SLOW_MS: "60000", GRACE_MS: "700" });
    const slow = get(server.port, "/slow").catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const signalledAt = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(143);
    const waited = Date.now() - signalledAt;
    expect(waited).toBeGreaterThanOrEqual(650);
    expect(waited).toBeLessThan(3_000);
    expect(await slow).toMatchObject({ code: "ECONNRESET" });
  });
});

describe("untilDraining", () => {
  it("aborts with the request's signal, and leaves nothing on the process-wide signal once the request is over", async () => {
    const { drainingSignal, untilDraining } = await import("./server-draining.mjs");
    const request = new AbortController();
    const combined = untilDraining(request.signal);
    expect(combined.aborted).toBe(false);
    request.abort(new Error("client left"));
    expect(combined.aborted).toBe(true);
    expect((combined.reason as Error).message).toBe("client left");

    // A long-running server opens millions of streams: what each leaves behind must be nothing.
    // Measured in a process of its own, where a full GC can be forced.
    const probe = `
      const { untilDraining } = await import(${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, "server-draining.mjs")).href)});
      const heap = () => { globalThis.gc(); return process.memoryUsage().heapUsed; };
      const before = heap();
      for (let i = 0; i < 200000; i += 1) { const one = new AbortController(); untilDraining(one.signal); one.abort(); }
      await new Promise((resolve) => setTimeout(resolve, 20));
      process.stdout.write(String(heap() - before));
    `;
    const child = spawn(process.execPath, ["--expose-gc", "--input-type=module", "-e", probe], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    await once(child, "exit");
    // AbortSignal.any keeps about 50 bytes a call on Node 20: 10 MB here.
    expect(Number(out)).toBeLessThan(1_500_000);
    expect(drainingSignal().aborted).toBe(false);
  });
});
