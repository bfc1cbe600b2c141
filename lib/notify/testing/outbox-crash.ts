import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { type Child, killEngineChildren, spawnEngineChild } from "@/lib/engine/testing/spawn-child";

// What the tests that kill a sending instance share: the instance (outbox-child.ts) as a real
// process, a database of their own, and waiting on the outbox's rows.

/** An instance running the webhook outbox, as a separate Node process that a test may SIGKILL. */
export function spawnOutboxChild(env: Record<string, string>): Child {
  return spawnEngineChild(env, "../../notify/testing/outbox-child.ts");
}

/**
 * Creates the database before the file's (or describe block's) tests; after them, kills every
 * instance a failed test left running and drops it. `onReady` receives it.
 */
export function withOutboxDatabase(provider: TestProvider, onReady: (database: TestDatabase) => void): void {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    onReady(database);
  });
  afterAll(async () => {
    killEngineChildren();
    await database?.drop();
  });
}

/** Polls `check` until it holds; after 30 s, fails naming `what` it waited for. */
export async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
