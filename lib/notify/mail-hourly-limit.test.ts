import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setEmailWhenDecidedByUser } from "@/lib/db/decided-mail";
import { answerRequestTakingRun } from "@/lib/db/resolve-request";
import type { TestDatabase, TestProvider } from "@/lib/db/testing/test-database";
import { withMailCatcher } from "./testing/mail-fixture";
import { parkRequests } from "./testing/park-requests";

// One person's requests mailed at once are limited over every 60 minutes, not per clock hour
// (ADR 0104): the count lives in the database, so instances racing share it, and past it the
// mail waits for the digest (a decided mail is not sent). A real SMTP server on both databases;
// the workers' clock is moved instead of waiting.

const MINUTE = 60_000;
// Digests wait for the end of the day, so every mail seen here went at once.
const LIMIT = { TOOLNEXUS_MAIL_HOURLY_LIMIT: "3", TOOLNEXUS_MAIL_DIGEST_MINUTES: "1440" };

/** 10:59 UTC of a day to come: notices made now are due by then, and 11:00 is an hour's edge. */
function tenFiftyNine(): Date {
  const day = 24 * 60 * MINUTE;
  return new Date((Math.floor(Date.now() / day) + 2) * day + 10 * 60 * MINUTE + 59 * MINUTE);
}

describe.each<TestProvider>(["sqlite", "postgres"])("the hourly mail limit on %s", (provider) => {
  let database: TestDatabase;
  const { person, mailTo, worker } = withMailCatcher(provider, (started) => ({ database } = started));
  const ask = (ownerId: string, n: number) =>
    parkRequests(
      database.db,
      ownerId,
      Array.from({ length: n }, (_, i) => ({ audience: "reviewers" as const, prompt: `Ship build ${i}?` })),
    );
  const queuedDigests = (userId: string) =>
    database.db.mailItem.count({ where: { userId, mode: "digest", status: "queued" } });

  it("holds over any 60 minutes, across an hour's edge, and lets mail through once they pass", async () => {
    const [alice, rita] = await Promise.all([person("user", "Alice"), person("reviewer", "Rita")]);
    let clock = tenFiftyNine();
    const [a, b] = [
      worker({ now: () => clock }, LIMIT),
      worker({ now: () => clock, db: database.connect() }, LIMIT),
    ];
    const askAt = async (at: Date, n: number, instance = a) => {
      clock = at;
      await ask(alice.id, n);
      await instance.tick();
      return mailTo(rita.email).length;
    };
    const start = clock.getTime();
    const at = (minutes: number, seconds = 0) => new Date(start + minutes * MINUTE + seconds * 1_000);
    expect(await askAt(at(0), 2)).toBe(2);
    // Past 11:00 a clock hour starts afresh, but the two of 10:59 still count: one more goes.
    expect(await askAt(at(2), 2, b)).toBe(3);
    // 60 minutes after 10:59 they still count; a second later they no longer do.
    expect(await askAt(at(60), 1)).toBe(3);
    expect(await askAt(at(60, 1), 2, b)).toBe(5);
    // The one of 11:01 counts until 12:01 with the two of 11:59, then gives its place.
    expect(await askAt(at(62), 1)).toBe(5);
    expect(await askAt(at(62, 1), 1, b)).toBe(6);
    expect(await queuedDigests(rita.id)).toBe(3);
    expect(await database.db.request.count({ where: { ownerId: alice.id, status: "open" } })).toBe(9);
  });

  it("lets workers racing mail no more than the limit at once", async () => {
    const [bob, rob] = await Promise.all([person("user", "Bob"), person("reviewer", "Rob")]);
    const clock = tenFiftyNine();
    const instance = () => worker({ now: () => clock, db: database.connect() }, LIMIT);
    const instances = [instance(), instance(), instance(), instance()];
    await ask(bob.id, 12);
    await Promise.all(instances.map((one) => one.tick()));
    await instances[0]!.tick();
    expect(mailTo(rob.email)).toHaveLength(3);
    expect(await queuedDigests(rob.id)).toBe(9);
  });

  it("sends no decided mail past the limit, as the chat shows the decision", async () => {
    const [ann, ray] = await Promise.all([person("user", "Ann"), person("reviewer", "Ray")]);
    await setEmailWhenDecidedByUser({ db: database.db, userId: ann.id, on: true });
    const clock = tenFiftyNine();
    const tick = () => worker({ now: () => clock }, { ...LIMIT, TOOLNEXUS_MAIL_HOURLY_LIMIT: "1" }).tick();
    const [id] = await ask(ann.id, 1);
    await tick();
    expect(mailTo(ray.email)).toHaveLength(1);
    const answered = await answerRequestTakingRun({
      db: database.db,
      id: id!,
      resolution: { status: "answered", answer: { id: `pnd-${id}`, ok: true }, actorId: ray.id },
      lease: { leaseOwner: `run-${randomUUID()}`, leaseExpiresAt: new Date(Date.now() + MINUTE) },
    });
    expect(answered).toMatchObject({ claimed: true });
    await tick();
    expect(mailTo(ann.email)).toEqual([]);
    expect(await database.db.mailItem.count({ where: { userId: ann.id } })).toBe(0);
    expect(
      await database.db.mailNotice.count({ where: { requestRowId: id!, stepId: "decided", status: "done" } }),
    ).toBe(1);
  });
});
