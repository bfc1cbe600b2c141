import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { createDb } from "@/lib/db/sql/client";
import { migrateDatabase } from "@/lib/db/sql/migrate-database";
import { createTempDatabase } from "@/lib/db/sql/temp-database";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { makeTestEngine } from "@/lib/engine/testing/engine-fixture";
import { memoryLog } from "@/lib/engine/testing/scripted-agent";
import { checkReadiness } from "./check-readiness";

const body = async (response: Response) => ({ status: response.status, json: await response.json() });

function newestMigration(provider: TestProvider): string {
  const dir = provider === "sqlite" ? "prisma/migrations" : "prisma/postgres/migrations";
  const names = readdirSync(path.join(import.meta.dirname, "../..", dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return names.at(-1)!;
}

describe("GET /api/health", () => {
  it("answers 200 with nothing but its status, uncached", async () => {
    const response = health();
    expect(await body(response)).toEqual({ status: 200, json: { status: "ok" } });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe.each<TestProvider>(["sqlite", "postgres"])("readiness on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("is ready once the database is migrated and the engine runs, and not once it stops", async () => {
    const engine = makeTestEngine({ db: database.db, log: memoryLog() });
    const services = { db: database.db, engine };
    expect(await body(await checkReadiness({ services, provider }))).toEqual({
      status: 503,
      json: { status: "not_ready" },
    });
    await engine.start();
    const ready = await checkReadiness({ services, provider });
    expect(await body(ready)).toEqual({ status: 200, json: { status: "ready" } });
    expect(ready.headers.get("cache-control")).toBe("no-store");
    await engine.stop();
    expect((await checkReadiness({ services, provider })).status).toBe(503);
  });

  it("is not ready while a committed migration is missing, or without services", async () => {
    const temp = await createTempDatabase({ provider });
    const db = createDb({ url: temp.url });
    // The engine runs (on the migrated database), so only the missing migration can say no. The
    // newest one is left out: whichever it is, the check must notice it.
    const engine = makeTestEngine({ db: database.db, log: memoryLog() });
    await engine.start();
    try {
      await migrateDatabase({ url: temp.url, before: newestMigration(provider) });
      expect(await body(await checkReadiness({ services: { db, engine }, provider }))).toEqual({
        status: 503,
        json: { status: "not_ready" },
      });
    } finally {
      await engine.stop();
      await db.$disconnect();
      await temp.drop();
    }
    expect((await checkReadiness({ services: null, provider })).status).toBe(503);
  });

  it("is not ready when the database does not answer", async () => {
    const temp = await createTempDatabase({ provider });
    const db = createDb({ url: temp.url });
    await migrateDatabase({ url: temp.url });
    await temp.drop();
    const engine = makeTestEngine({ db, log: memoryLog() });
    const response = await checkReadiness({
      services: { db, engine: { ...engine, isRunning: () => true } },
      provider,
    });
    expect(await body(response)).toEqual({ status: 503, json: { status: "not_ready" } });
    await db.$disconnect();
  });
});
