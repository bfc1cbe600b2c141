import { randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import type { Role } from "@/lib/domain/roles";
import { type CaughtMail, type MailCatcher, startMailCatcher } from "../mail-catcher";
import { readMailConfig } from "../mail-config";
import { createMailWorker, type MailWorker, type MailWorkerOptions } from "../mail-worker";

// What the mail tests start with: a database of their own, a real SMTP server catching what is
// sent, people with addresses, and a mail worker that sends there and retries at once.

/** The app's address in every link the tests' mail carries. */
export const MAIL_APP_URL = "https://app.example.test";

/**
 * Creates the database and starts the catcher before the file's (or describe block's) tests,
 * and stops both after them; `onReady` receives them.
 */
export function withMailCatcher(
  provider: TestProvider,
  onReady: (started: { database: TestDatabase; catcher: MailCatcher }) => void,
): {
  /** A new person of `role` with an address of their own (named after the role unless told). */
  person: (role: Role, name?: string) => Promise<{ id: string; email: string }>;
  /** What the catcher received for `email` so far. */
  mailTo: (email: string) => CaughtMail[];
  /** A mail worker of a new instance, sending to the catcher; `env` adds to its mail settings. */
  worker: (overrides?: Partial<MailWorkerOptions>, env?: Record<string, string>) => MailWorker;
} {
  let database: TestDatabase | undefined;
  let catcher: MailCatcher | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    catcher = await startMailCatcher();
    onReady({ database, catcher });
  });
  afterAll(async () => {
    await catcher?.close();
    await database?.drop();
  });
  const started = () => {
    if (!database || !catcher) throw new Error("the mail fixture is not started: use it inside a test");
    return { database, catcher };
  };
  return {
    person: async (role, name = role) => {
      const email = `${role}-${randomUUID()}@example.test`;
      const user = await started().database.db.user.create({ data: { role, email, name } });
      return { id: user.id, email };
    },
    mailTo: (email) =>
      started()
        .catcher.mails()
        .filter((mail) => mail.to.includes(email)),
    worker: (overrides = {}, env = {}) =>
      createMailWorker({
        db: started().database.db,
        instanceId: `mail-${randomUUID()}`,
        appUrl: MAIL_APP_URL,
        mail: readMailConfig({ TOOLNEXUS_SMTP_URL: `smtp://127.0.0.1:${started().catcher.port}`, ...env }),
        retry: { firstMs: 0, maxMs: 0, jitter: [1, 1] },
        ...overrides,
      }),
  };
}
