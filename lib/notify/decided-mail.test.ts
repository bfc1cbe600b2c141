import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setEmailWhenDecidedByUser } from "@/lib/db/decided-mail";
import { answerRequestTakingRun, resolveRequest } from "@/lib/db/resolve-request";
import type { TestDatabase, TestProvider } from "@/lib/db/testing/test-database";
import { MAIL_APP_URL, withMailCatcher } from "./testing/mail-fixture";
import { parkRequests } from "./testing/park-requests";

// The asker who chose to hear of decisions is mailed once when their request is decided by
// someone else, through a real SMTP server, on both databases: the answer's one statement on
// PostgreSQL, a transaction elsewhere and for an expiry.

const APP = MAIL_APP_URL;

describe.each<TestProvider>(["sqlite", "postgres"])("mail to the asker when decided on %s", (provider) => {
  let database: TestDatabase;
  const { person, mailTo, worker } = withMailCatcher(provider, (started) => ({ database } = started));
  const tick = () => worker().tick();
  const approve = (id: string, actorId: string, leaseOwner = `run-${randomUUID()}`) =>
    answerRequestTakingRun({
      db: database.db,
      id,
      resolution: { status: "answered", answer: { id: `pnd-${id}`, ok: true }, actorId },
      lease: { leaseOwner, leaseExpiresAt: new Date(Date.now() + 60_000) },
    });
  const decidedNotices = (requestRowId: string) =>
    database.db.mailNotice.count({ where: { requestRowId, stepId: "decided" } });

  it("mails an asker who chose it once, saying what was decided, by whom, with the link", async () => {
    const [asker, reviewer] = await Promise.all([person("user", "Ann"), person("reviewer", "Rita")]);
    await setEmailWhenDecidedByUser({ db: database.db, userId: asker.id, on: true });
    const [id] = await parkRequests(database.db, asker.id, [
      { audience: "reviewers", prompt: "Deploy web v2?", args: { token: "sk-live-secret-9" } },
    ]);
    await tick();
    expect(await approve(id!, reviewer.id)).toMatchObject({ claimed: true });
    await tick();
    await tick();
    const mails = mailTo(asker.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Your request was approved: “Deploy web v2?”");
    expect(mails[0]!.text).toContain("Your request “Deploy web v2?” was approved by Rita.");
    expect(mails[0]!.text).toContain(`${APP}/requests/${id}`);
    expect(mails[0]!.text).not.toContain("sk-live-secret-9");
    expect(mails[0]!.html).not.toContain("sk-live-secret-9");
  });

  it("mails an expiry too, and nobody who did not choose it", async () => {
    const [chose, other] = await Promise.all([person("user", "Cy"), person("user", "Dee")]);
    await setEmailWhenDecidedByUser({ db: database.db, userId: chose.id, on: true });
    // One who chose it and then turned it off again is mailed nothing either.
    await setEmailWhenDecidedByUser({ db: database.db, userId: other.id, on: true });
    await setEmailWhenDecidedByUser({ db: database.db, userId: other.id, on: false });
    const [mine] = await parkRequests(database.db, chose.id, [
      { audience: "reviewers", prompt: "Rotate keys?" },
    ]);
    const [theirs] = await parkRequests(database.db, other.id, [
      { audience: "reviewers", prompt: "Drop table?" },
    ]);
    for (const id of [mine!, theirs!])
      expect(
        await resolveRequest({ db: database.db, id, resolution: { status: "expired", actorId: null } }),
      ).toMatchObject({ claimed: true });
    await tick();
    expect(mailTo(chose.email).map((mail) => mail.subject)).toEqual(["Your request expired: “Rotate keys?”"]);
    expect(mailTo(other.email)).toEqual([]);
    expect(await decidedNotices(theirs!)).toBe(0);
  });

  it("mails no asker who decided their own request", async () => {
    const asker = await person("user", "Eve");
    await setEmailWhenDecidedByUser({ db: database.db, userId: asker.id, on: true });
    const [id] = await parkRequests(database.db, asker.id, [{ audience: "owner", prompt: "Send it?" }]);
    expect(await approve(id!, asker.id)).toMatchObject({ claimed: true });
    await tick();
    expect(await decidedNotices(id!)).toBe(0);
    expect(mailTo(asker.email)).toEqual([]);
  });

  it("mails once when two answers race", async () => {
    const [asker, first, second] = await Promise.all([
      person("user", "Fay"),
      person("reviewer", "Gus"),
      person("reviewer", "Hal"),
    ]);
    await setEmailWhenDecidedByUser({ db: database.db, userId: asker.id, on: true });
    const [id] = await parkRequests(database.db, asker.id, [
      { audience: "reviewers", prompt: "Pay invoice?" },
    ]);
    const results = await Promise.all([approve(id!, first.id), approve(id!, second.id)]);
    expect(results.filter((result) => result.claimed)).toHaveLength(1);
    await Promise.all([tick(), tick()]);
    await tick();
    expect(await decidedNotices(id!)).toBe(1);
    expect(mailTo(asker.email)).toHaveLength(1);
  });
});
