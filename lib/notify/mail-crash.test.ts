import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEmailModeByUser } from "@/lib/db/notification-settings";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { killEngineChildren, spawnEngineChild } from "@/lib/engine/testing/spawn-child";
import { parseMail } from "./mail-catcher";
import { createMailWorker, digestDueAt } from "./mail-worker";
import { parkRequests } from "./testing/park-requests";

// A digest whose instance is SIGKILLed while the SMTP server has its message but has not yet
// accepted it: the next instance sends it, once, with every request of the window.

const WINDOW = 60 * 60_000;
const LEASE = 120_000;

/** A real SMTP server that keeps the first message's transaction open (never accepting it). */
async function startHoldingServer() {
  const accepted: { to: string[]; subject: string; text: string; html: string | null }[] = [];
  let held = 0;
  let onHeld: () => void = () => {};
  const heldOnce = new Promise<void>((resolve) => {
    onHeld = resolve;
  });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (held === 0) {
          held += 1;
          onHeld();
          return; // no reply: the sender waits for one until it dies
        }
        void parseMail(Buffer.concat(chunks)).then((parsed) => {
          accepted.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), ...parsed });
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    heldOnce,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each<TestProvider>(["sqlite", "postgres"])("a digest across a killed instance on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    killEngineChildren();
    await database?.drop();
  });

  it("is sent once, whole, by the next instance", { timeout: 90_000 }, async () => {
    const smtp = await startHoldingServer();
    try {
      const db = database.db;
      const owner = await db.user.create({ data: { email: `owner-${randomUUID()}@example.test` } });
      const reviewer = await db.user.create({
        data: { role: "reviewer", email: `rev-${randomUUID()}@example.test` },
      });
      await setEmailModeByUser({ db, userId: reviewer.id, mode: "digest" });
      const queuedAt = new Date(Date.now() + 60_000);
      const ids = await parkRequests(db, owner.id, [
        { audience: "reviewers", prompt: "One" },
        { audience: "reviewers", prompt: "Two" },
      ]);
      // Queue them (the fan-out) on a clock inside one window; nothing is due yet.
      await createMailWorker({
        db,
        instanceId: "queue",
        appUrl: "https://app.example.test",
        mail: {
          transport: { sendMail: async () => ({}) as never },
          from: "t@example.test",
          digestWindowMs: WINDOW,
          hourlyLimit: 30,
        },
        now: () => queuedAt,
      }).tick();
      expect(await db.mailItem.count({ where: { userId: reviewer.id, status: "queued" } })).toBe(2);

      const due = digestDueAt(queuedAt, WINDOW).getTime() + 1;
      const env = (clock: number) => ({
        DATABASE_URL: database.url,
        SMTP_URL: smtp.url,
        CLOCK_MS: String(clock),
        LEASE_MS: String(LEASE),
        POLL_MS: "50",
        TOOLNEXUS_MAIL_DIGEST_MINUTES: "60",
      });
      const first = spawnEngineChild(env(due), "../../notify/testing/mail-child.ts");
      await smtp.heldOnce;
      first.process.kill("SIGKILL");
      await first.exited;
      expect(smtp.accepted).toHaveLength(0);

      // The next instance, once the dead one's lease is over.
      const next = spawnEngineChild(env(due + LEASE + 1), "../../notify/testing/mail-child.ts");
      const deadline = Date.now() + 60_000;
      while ((await db.mailItem.count({ where: { userId: reviewer.id, status: "sent" } })) < 2) {
        if (Date.now() > deadline) throw new Error("the digest was not sent");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      next.process.kill("SIGKILL");
      await next.exited;
      const digests = smtp.accepted.filter((mail) => mail.to.includes(reviewer.email!));
      expect(digests).toHaveLength(1);
      expect(digests[0]!.subject).toBe("2 requests wait for you");
      for (const id of ids) expect(digests[0]!.text).toContain(`https://app.example.test/requests/${id}`);
    } finally {
      await smtp.close();
    }
  });
});
