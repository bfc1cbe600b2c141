import type { Client } from "@a2a-js/sdk/client";
import { afterAll, beforeAll } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { tokenFor } from "@/app/api/mcp/_lib/testing/mcp-fixture";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Engine } from "@/lib/engine/engine-types";
import { a2aClient, serveA2AOverHttp } from "./a2a-fixture";

// What the A2A server's tests start with: the app's engine on a test database of its own, the
// A2A server in front of it on a real HTTP port for the whole file, and people who call it.

export type ServedA2A = Awaited<ReturnType<typeof serveA2AOverHttp>>;

/**
 * Starts the engine and the A2A server before the file's tests and closes both after them;
 * `onReady` receives them, as `withTestEngine`'s callback does.
 */
export function withA2AServer(
  onReady: (started: { db: Db; engine: Engine; served: ServedA2A }) => void,
  provider: TestProvider = "sqlite",
): {
  /** A new person with an `a2a` token, and the SDK's client sending it. */
  clientOf: (role?: SessionUser["role"]) => Promise<{ person: SessionUser; token: string; client: Client }>;
} {
  let db: Db;
  let served: ServedA2A | undefined;
  let engine: Engine;
  withTestEngine((started) => ({ db, engine } = started), provider);
  beforeAll(async () => {
    served = await serveA2AOverHttp({ db, engine });
    onReady({ db, engine, served });
  });
  afterAll(() => served?.close());
  return {
    clientOf: async (role = "user") => {
      const person = await newUser(db, role);
      const { token } = await tokenFor(db, person, ["a2a"]);
      return { person, token, client: await a2aClient(requireServed(served).base, token) };
    },
  };
}

function requireServed(served: ServedA2A | undefined): ServedA2A {
  if (!served) throw new Error("the A2A server is not started: call clientOf inside a test");
  return served;
}
