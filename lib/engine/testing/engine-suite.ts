import { afterAll, beforeAll } from "vitest";
import { type People, seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";

export interface EngineSuite {
  readonly database: TestDatabase;
  /** The people of the thread `freshThread` made last. */
  readonly people: People & { threadId: string };
  /** New users and a new thread, so tests of one file never share a run's thread. */
  freshThread(): Promise<string>;
}

/** Registers a database of its own for the calling `describe` block, dropped after it. */
export function useEngineSuite(provider: TestProvider): EngineSuite {
  let database: TestDatabase | undefined;
  let people: (People & { threadId: string }) | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not set up yet`);
    return value;
  };
  return {
    get database() {
      return ready(database, "the database");
    },
    get people() {
      return ready(people, "the thread");
    },
    async freshThread() {
      people = await seedPeople(ready(database, "the database").db);
      return people.threadId;
    },
  };
}
