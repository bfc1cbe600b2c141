import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { serveOverHttp } from "@/app/api/mcp/_lib/testing/serve-over-http";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import { listApiRequestsByOwner } from "@/lib/db/api-requests";
import { createApiToken } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { createRequestRoute, readRequestRoute } from "./api-routes";
import { serveApiRoute } from "./define-api-route";
import { createRequestCall, readRequestCall } from "./request-calls";

// examples/python/inbox_wait_for.py, run by python3 against the real /api/v1 routes over HTTP:
// it asks, is killed while it waits, and run again finds its request and prints the answer.

let db: Db;
let engine: Engine;
let url: string;
let close: () => Promise<void>;
withTestEngine((started) => {
  ({ db, engine } = started);
});
beforeAll(async () => {
  const create = serveApiRoute(createRequestRoute, createRequestCall);
  const read = serveApiRoute(readRequestRoute, readRequestCall);
  const served = await serveOverHttp(async (request) => {
    const { pathname } = new URL(request.url);
    const id = /^\/api\/v1\/requests\/([^/]+)$/.exec(pathname)?.[1];
    if (request.method === "POST" && pathname === "/api/v1/requests") {
      return create(request, { params: Promise.resolve({}) }, { db, engine });
    }
    if (request.method === "GET" && id)
      return read(request, { params: Promise.resolve({ id }) }, { db, engine });
    return new Response(null, { status: 404 });
  });
  url = served.url.replace(/\/api\/mcp$/, "");
  close = served.close;
});
/** Every script started, killed after the tests so a failing one never outlives them. */
const running: { kill: () => void }[] = [];
afterAll(async () => {
  for (const script of running) script.kill();
  await close?.();
});

function runScript(token: string, prompt: string) {
  let output = "";
  const child: ChildProcess = spawn("python3", [path.resolve("examples/python/inbox_wait_for.py"), prompt], {
    env: { ...process.env, TOOLNEXUS_URL: url, TOOLNEXUS_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    output: () => output,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

describe("the Python wait_for example", () => {
  it("asks once, survives being killed while it waits, and returns the reviewer's answer", {
    timeout: 60_000,
  }, async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const minted = mintApiToken();
    await createApiToken({
      db,
      userId: owner.id,
      name: "python",
      scopes: ["requests:write", "requests:read"],
      expiresAt: null,
      limit: 20,
      ...minted,
    });
    const listed = async () => (await listApiRequestsByOwner({ db, ownerId: owner.id, limit: 10 })).requests;

    const first = runScript(minted.token, "Ship build 812?");
    running.push(first);
    await expect.poll(listed, { timeout: 20_000 }).toHaveLength(1);
    first.kill();
    await first.exited;

    const [request] = await listed();
    await engine.answerRequest({
      requestId: request!.id,
      actor: reviewer,
      answer: { ok: true, data: { note: "go" } },
    });
    const second = runScript(minted.token, "Ship build 812?");
    running.push(second);
    expect(await second.exited).toBe(0);
    expect(JSON.parse(second.output().trim())).toEqual({
      id: "Ship build 812?",
      ok: true,
      data: { note: "go" },
    });
    expect(await listed()).toHaveLength(1);
  });
});
