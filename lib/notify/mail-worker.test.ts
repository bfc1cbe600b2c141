import { describe, expect, it } from "vitest";
import { setEmailModeByUser } from "@/lib/db/notification-settings";
import type { TestDatabase, TestProvider } from "@/lib/db/testing/test-database";
import type { MailCatcher } from "./mail-catcher";
import { readMailConfig } from "./mail-config";
import { digestDueAt } from "./mail-worker";
import { appendPending, requestView } from "./testing/announce";
import { MAIL_APP_URL, withMailCatcher } from "./testing/mail-fixture";
import { parkRequests } from "./testing/park-requests";

// Email through a real SMTP server (the project's catcher on smtp-server) with nodemailer, on
// both databases. The clock is the worker's own, moved past a digest window instead of waited.

const APP = MAIL_APP_URL;
const WINDOW = 60 * 60_000;

describe.each<TestProvider>(["sqlite", "postgres"])("email about new requests on %s", (provider) => {
  let database: TestDatabase;
  let catcher: MailCatcher;
  const { person, mailTo, worker } = withMailCatcher(
    provider,
    (started) => ({ database, catcher } = started),
  );

  it("mails every reviewer once about a new approval, with its link, and nobody else", async () => {
    const [owner, reviewer, admin, stranger] = await Promise.all([
      person("user"),
      person("reviewer"),
      person("admin"),
      person("user"),
    ]);
    const [id] = await parkRequests(database.db, owner.id, [
      { audience: "reviewers", prompt: "Approve deploying web v1.4?", args: { token: "sk-live-secret-1" } },
    ]);
    const sender = worker();
    await sender.tick();
    // A later park lists the same open request again: that is no new request.
    const thread = await database.db.thread.create({ data: { userId: owner.id } });
    await appendPending(database.db, thread.id, [requestView({ id: id! })]);
    await sender.tick();
    await sender.tick();
    for (const who of [reviewer, admin]) {
      const mails = mailTo(who.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe("Approval needed: “Approve deploying web v1.4?”");
      expect(mails[0]!.text).toContain(`${APP}/requests/${id}`);
      // What the tool was given stays out of the mailbox.
      expect(mails[0]!.text).not.toContain("sk-live-secret-1");
    }
    expect(mailTo(owner.email)).toHaveLength(0);
    expect(mailTo(stranger.email)).toHaveLength(0);
  });

  it("mails the owner about their own request, and leaves out its arguments and links to elsewhere", async () => {
    const [owner, reviewer] = await Promise.all([person("user"), person("reviewer")]);
    const [id] = await parkRequests(database.db, owner.id, [
      {
        audience: "owner",
        prompt: "Sign in to the bank",
        args: { apiKey: "tool-token-xyz" },
        url: "https://bank.example.test/authorize?state=abc",
      },
    ]);
    await worker().tick();
    const [mail] = mailTo(owner.email);
    expect(mail?.text).toContain(`${APP}/requests/${id}`);
    expect(mail?.text).not.toContain("tool-token-xyz");
    expect(mail?.text).not.toContain("bank.example.test");
    expect(mailTo(reviewer.email)).toHaveLength(0);
  });

  it("collects a window's requests into one digest, sent once after the window by one of two restarted instances", async () => {
    const [owner, reviewer] = await Promise.all([person("user"), person("reviewer")]);
    await setEmailModeByUser({ db: database.db, userId: reviewer.id, mode: "digest" });
    // Ahead of the real time the requests are stamped with, fixed while they are queued: all of
    // them fall into the window this clock is in.
    let clock = new Date(Date.now() + 60_000);
    const now = () => clock;
    const ids = await parkRequests(database.db, owner.id, [
      { audience: "reviewers", prompt: "First approval" },
      { audience: "reviewers", prompt: "Second approval" },
    ]);
    const before = worker({ now });
    await before.tick();
    ids.push(
      ...(await parkRequests(database.db, owner.id, [{ audience: "reviewers", prompt: "Third approval" }])),
    );
    await before.tick();
    expect(mailTo(reviewer.email)).toHaveLength(0);
    // The process that queued them is gone; two new ones start once the window is over.
    clock = new Date(digestDueAt(clock, WINDOW).getTime() + 1);
    const a = worker({ now, db: database.connect() });
    const b = worker({ now, db: database.connect() });
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.tick(), b.tick()]);
    const mails = mailTo(reviewer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("3 requests wait for you");
    for (const id of ids) expect(mails[0]!.text).toContain(`${APP}/requests/${id}`);
  });

  it("sends nothing to someone who turned mail off, or about a request closed before its mail went", async () => {
    const [owner, quiet, late] = await Promise.all([person("user"), person("reviewer"), person("reviewer")]);
    await setEmailModeByUser({ db: database.db, userId: quiet.id, mode: "off" });
    await setEmailModeByUser({ db: database.db, userId: late.id, mode: "digest" });
    const clock = new Date(Date.now() + 60_000);
    const [id] = await parkRequests(database.db, owner.id, [
      { audience: "reviewers", prompt: "Answered early" },
    ]);
    await worker({ now: () => clock }).tick();
    await database.db.request.update({ where: { id }, data: { status: "answered" } });
    await worker({ now: () => new Date(digestDueAt(clock, WINDOW).getTime() + 1) }).tick();
    expect(mailTo(quiet.email)).toHaveLength(0);
    expect(mailTo(late.email)).toHaveLength(0);
    expect(await database.db.mailItem.findFirst({ where: { userId: late.id } })).toMatchObject({
      status: "skipped",
    });
  });

  it("keeps a mail the SMTP server refused queued, and the next pass sends it once", async () => {
    const owner = await person("user");
    const [id] = await parkRequests(database.db, owner.id, [{ audience: "owner", prompt: "Retry me" }]);
    const real = readMailConfig({ TOOLNEXUS_SMTP_URL: `smtp://127.0.0.1:${catcher.port}` })!;
    const refusing = {
      ...real,
      transport: {
        sendMail: async () => {
          throw new Error("421 try again later");
        },
      },
    };
    await worker({ mail: refusing as never }).tick();
    expect(mailTo(owner.email)).toHaveLength(0);
    const item = await database.db.mailItem.findFirstOrThrow({ where: { requestRowId: id } });
    expect(item).toMatchObject({ status: "queued", attempts: 1, lastError: "421 try again later" });
    await worker().tick();
    await worker().tick();
    expect(mailTo(owner.email)).toHaveLength(1);
  });
});
