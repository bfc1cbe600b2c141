import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./client";
import { migrateDatabase } from "./migrate-database";
import { createTempDatabase, type TempDatabase } from "./temp-database";

function committedMigrations(provider: "sqlite" | "postgres"): string[] {
  const dir = path.resolve(provider === "postgres" ? "prisma/postgres/migrations" : "prisma/migrations");
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

const root = path.resolve(import.meta.dirname, "../../..");

function startClaimer(
  url: string,
  id: string,
): { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "lib/db/testing/claim-in-child.ts", url, id],
    { cwd: root },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, lines };
}

async function nextLine(lines: AsyncIterator<string>): Promise<string> {
  const { value, done } = await lines.next();
  if (done) throw new Error("claimer exited early");
  return value;
}

describe.each(["sqlite", "postgres"] as const)("migrateDatabase and the client on %s", (provider) => {
  let database: TempDatabase;
  let db: Db;
  let other: Db;

  beforeAll(async () => {
    // Not created up front: a fresh install starts with no database at all.
    database = await createTempDatabase({ provider, create: false });
  });

  afterAll(async () => {
    await db?.$disconnect();
    await other?.$disconnect();
    await database?.drop();
  });

  it("creates the database and applies every committed migration", async () => {
    const result = await migrateDatabase({ url: database.url });
    expect(result.applied).toEqual(committedMigrations(provider));
    expect(result.applied.length).toBeGreaterThan(0);
  });

  it("applies nothing the second time", async () => {
    expect(await migrateDatabase({ url: database.url })).toEqual({ applied: [] });
  });

  it("stops before a given migration, and applies the rest on the next run", async () => {
    const all = committedMigrations(provider);
    const cut = all[Math.floor(all.length / 2)]!;
    const partial = await createTempDatabase({ provider });
    try {
      const first = await migrateDatabase({ url: partial.url, before: cut });
      expect(first.applied).toEqual(all.filter((name) => name < cut));
      const rest = await migrateDatabase({ url: partial.url });
      expect(rest.applied).toEqual(all.filter((name) => name >= cut));
    } finally {
      await partial.drop();
    }
  });

  it("round-trips rows, relations and Json through the generated client", async () => {
    db = createDb({ url: database.url });
    const user = await db.user.create({ data: { email: `${provider}@example.test`, name: "Ada" } });
    expect(user.role).toBe("user");
    const thread = await db.thread.create({ data: { userId: user.id, title: "first" } });
    const run = await db.run.create({ data: { threadId: thread.id, userId: user.id, model: "demo" } });
    const payload = { id: "pnd-1", kind: "approval", prompt: "Deploy?", data: { env: ["prod"], n: 2 } };
    const request = await db.request.create({
      data: {
        requestId: payload.id,
        runId: run.id,
        threadId: thread.id,
        ownerId: user.id,
        toolCallId: "call-1",
        toolName: "deploy",
        args: { service: "api" },
        kind: payload.kind,
        prompt: payload.prompt,
        data: payload.data,
        payload,
        audience: "reviewers",
      },
    });

    const loaded = await db.request.findUniqueOrThrow({
      where: { runId_requestId: { runId: run.id, requestId: "pnd-1" } },
      include: { run: { include: { thread: true } }, answer: true },
    });
    expect(loaded.id).toBe(request.id);
    expect(loaded.payload).toEqual(payload);
    expect(loaded.args).toEqual({ service: "api" });
    expect(loaded.status).toBe("open");
    expect(loaded.answer).toBeNull();
    expect(loaded.run?.thread.title).toBe("first");
    expect(loaded.createdAt).toBeInstanceOf(Date);

    await expect(
      db.request.create({
        data: { ...request, id: undefined, args: {}, payload, data: payload.data, createdAt: undefined },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
  });

  it("lets exactly one of two racing conditional updates claim a row", async () => {
    other = createDb({ url: database.url });
    const request = await db.request.findFirstOrThrow({ where: { requestId: "pnd-1" } });
    const claim = (client: Db) =>
      client.request.updateMany({
        where: { id: request.id, status: "open" },
        data: { status: "answered", resolvedAt: new Date() },
      });
    const results = await Promise.all([claim(db), claim(other)]);
    expect(results.map((result) => result.count).sort()).toEqual([0, 1]);
    const after = await other.request.findUniqueOrThrow({ where: { id: request.id } });
    expect(after.status).toBe("answered");
    expect(after.resolvedAt).toBeInstanceOf(Date);
  });

  it("lets exactly one of two racing processes claim a row", { timeout: 60_000 }, async () => {
    const template = await db.request.findFirstOrThrow({ where: { requestId: "pnd-1" } });
    const fresh = await db.request.create({
      data: {
        requestId: "pnd-2",
        runId: template.runId,
        threadId: template.threadId,
        ownerId: template.ownerId,
        toolCallId: "call-2",
        toolName: "deploy",
        args: {},
        kind: "approval",
        prompt: "Again?",
        payload: { id: "pnd-2", kind: "approval", prompt: "Again?" },
      },
    });
    const claimers = [startClaimer(database.url, fresh.id), startClaimer(database.url, fresh.id)];
    try {
      for (const { lines } of claimers) expect(await nextLine(lines)).toBe("ready");
      for (const { child } of claimers) child.stdin.write("go\n");
      const counts = await Promise.all(claimers.map(async ({ lines }) => nextLine(lines)));
      expect(counts.sort()).toEqual(["count 0", "count 1"]);
    } finally {
      for (const { child } of claimers) if (child.exitCode === null) child.kill();
    }
    expect((await db.request.findUniqueOrThrow({ where: { id: fresh.id } })).status).toBe("answered");
  });
});
