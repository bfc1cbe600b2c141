import { afterEach, describe, expect, it } from "vitest";
import {
  abortFollowedStreams,
  countScheduledChecks,
  followVersionStream,
  ownerOfThreadKnown,
} from "@/app/_lib/follow-version-stream";
import type { VersionStreamOptions } from "@/app/_lib/open-version-stream";
import { newThread, newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { ThreadOwnerCache } from "@/app/_lib/thread-owner-cache";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import { getThreadsVersionByOwner } from "@/lib/db/threads-version";
import { listThreadsWithStatusByOwner } from "@/lib/db/threads-with-status";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { openThreadsStream } from "./open-threads-stream";

let db: Db;
let engine: Engine;
let bus: EventBus;
let threadOwners: ThreadOwnerCache;
withTestEngine((started) => ({ db, engine, bus, threadOwners } = started));

afterEach(abortFollowedStreams);

function follow(user: SessionUser, options: VersionStreamOptions = {}) {
  const stream = followVersionStream(
    bus,
    (signal, withOptions) =>
      openThreadsStream({ actor: user, signal }, { db, bus, threadOwners }, withOptions),
    options,
  );
  return {
    ...stream,
    /**
     * Once everything committed so far has been checked, reads the changes sent meanwhile (a
     * run passes through several states) up to the one that names the version now.
     */
    async caughtUp(): Promise<string[]> {
      await stream.settled();
      const now = await versionOf(user);
      const seen: string[] = [];
      for (;;) {
        const next = await stream.next();
        if (!next) throw new Error("the stream ended");
        seen.push(next.event);
        if (next.data === now) return seen;
      }
    },
  };
}

// A quiet period no other timer in these tests has, so that its timers count the checks asked for.
const QUIET_MS = 37;

const versionOf = (user: SessionUser) => getThreadsVersionByOwner({ db, userId: user.id });
const statusesOf = async (user: SessionUser) =>
  Object.fromEntries(
    (await listThreadsWithStatusByOwner({ db, userId: user.id })).map((t) => [t.id, t.status]),
  );

describe("openThreadsStream", () => {
  it("sends the user's sidebar version, then a change whenever one of their threads moves on", async () => {
    const user = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const stream = follow(user);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(await stream.next()).toEqual({ event: "version", data: await versionOf(user) });

    const refund = await parkRequest({ db, engine }, { owner: user, text: "refund order 7101 for $250" });
    expect(await stream.caughtUp()).toContain("changed");
    const flight = await parkRequest({ db, engine }, { owner: user, text: "book a flight" });
    expect(await stream.caughtUp()).toContain("changed");
    expect(await statusesOf(user)).toEqual({
      [refund.threadId]: "waiting_for_reviewer",
      [flight.threadId]: "needs_you",
    });

    // A reviewer approves the refund in another tab: the run resumes and finishes.
    await submitAnswer(
      {
        actor: reviewer,
        input: {
          requestId: refund.requestId,
          answer: { ok: true, data: { arguments: { orderId: "7101", amount: 250 } } },
        },
      },
      { engine },
    );
    await engine.idle();
    expect(await stream.caughtUp()).toContain("changed");
    expect(await statusesOf(user)).toEqual({ [refund.threadId]: null, [flight.threadId]: "needs_you" });
  });

  it("sends nothing when another user's threads change", async () => {
    const user = await newUser(db, "user");
    const stranger = await newUser(db, "user");
    await newThread(db, user);
    const stream = follow(user);
    const first = await stream.next();

    await parkRequest({ db, engine }, { owner: stranger, text: "book a flight" });
    await parkRequest({ db, engine }, { owner: stranger, text: "refund order 7102 for $250" });
    await stream.settled();
    // Had the stranger's chats moved the user's version, those changes would be queued first.
    await newThread(db, user);
    await stream.settled();
    const next = await stream.next();
    expect(next).toEqual({ event: "changed", data: await versionOf(user) });
    expect(next?.data).not.toBe(first?.data);
  });

  it("does not even check when another user's threads change", async () => {
    const user = await newUser(db, "user");
    const stranger = await newUser(db, "user");
    const scheduled = countScheduledChecks(QUIET_MS);
    const stream = follow(user, { coalesceMs: QUIET_MS });
    await stream.next();

    const theirs = await parkRequest({ db, engine }, { owner: stranger, text: "book a flight" });
    await ownerOfThreadKnown(threadOwners, theirs.threadId);
    expect(scheduled()).toBe(0);

    // The same activity in a thread of the user's own is worth checks, and moves their sidebar.
    const mine = await parkRequest({ db, engine }, { owner: user, text: "book a flight" });
    await ownerOfThreadKnown(threadOwners, mine.threadId);
    expect(scheduled()).toBeGreaterThan(0);
    expect(await stream.caughtUp()).toContain("changed");
  });
});
