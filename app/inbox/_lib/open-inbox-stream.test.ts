import { afterEach, describe, expect, it } from "vitest";
import {
  abortFollowedStreams,
  activeTimers,
  countScheduledChecks,
  followVersionStream,
  ownerOfThreadKnown,
  sseReader,
} from "@/app/_lib/follow-version-stream";
import type { VersionStreamOptions } from "@/app/_lib/open-version-stream";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { ThreadOwnerCache } from "@/app/_lib/thread-owner-cache";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import type { SessionUser } from "@/lib/auth/session-user";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { type EventBus, RESYNC_NOTICE } from "@/lib/engine/event-bus";
import { addressToGroup, makeGroup } from "@/lib/engine/testing/group-fixture";
import { openInboxStream } from "./open-inbox-stream";

let db: Db;
let engine: Engine;
let bus: EventBus;
let threadOwners: ThreadOwnerCache;
withTestEngine((started) => ({ db, engine, bus, threadOwners } = started));

afterEach(abortFollowedStreams);

function follow(viewer: SessionUser, options: VersionStreamOptions = {}) {
  return followVersionStream(
    bus,
    (signal, withOptions) =>
      openInboxStream({ actor: viewer, signal }, { db, bus, threadOwners }, withOptions),
    options,
  );
}

// A quiet period no other timer in these tests has, so that its timers count the checks asked for.
const QUIET_MS = 37;

const versionOf = (viewer: SessionUser) => getInboxVersionByViewer({ db, viewer });

describe("openInboxStream", () => {
  it("sends the viewer's inbox version, then a change when a request they may answer is parked", async () => {
    const reviewer = await newUser(db, "reviewer");
    const user = await newUser(db, "user");
    const stream = follow(reviewer);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(await stream.next()).toEqual({ event: "version", data: await versionOf(reviewer) });

    await parkRequest({ db, engine }, { owner: user, text: "refund order 7001 for $250" });
    const changed = await stream.next();
    expect(changed).toEqual({ event: "changed", data: await versionOf(reviewer) });
    stream.stop();
  });

  it("sends a change when someone else answers a request the viewer could answer", async () => {
    const reviewer = await newUser(db, "reviewer");
    const other = await newUser(db, "reviewer");
    const user = await newUser(db, "user");
    const { requestId } = await parkRequest(
      { db, engine },
      { owner: user, text: "refund order 7002 for $250" },
    );
    const stream = follow(reviewer);
    const first = await stream.next();

    await submitAnswer(
      { actor: other, input: { requestId, answer: { ok: false, reason: "declined" } } },
      { engine },
    );
    const changed = await stream.next();
    expect(changed?.event).toBe("changed");
    expect(changed?.data).not.toBe(first?.data);
    await engine.idle();
    expect(changed?.data).toBe(await versionOf(reviewer));
    stream.stop();
  });

  it("sends a group member a change when another member votes and the request stays open", async () => {
    const asker = await newUser(db, "user");
    const [member, other] = [await newUser(db, "user"), await newUser(db, "user")];
    const { requestId } = await parkRequest(
      { db, engine },
      { owner: asker, text: "deploy v1.4 to production" },
    );
    const slug = await makeGroup(db, [member, other]);
    await addressToGroup(db, requestId, slug, 2);
    const stream = follow(member);
    const first = await stream.next();

    const approve = {
      ok: true,
      data: { arguments: { service: "web", version: "v1.4", environment: "production" } },
    };
    await submitAnswer({ actor: other, input: { requestId, answer: approve } }, { engine });
    const changed = await stream.next();
    expect(changed?.event).toBe("changed");
    expect(changed?.data).not.toBe(first?.data);
    expect((await db.request.findUniqueOrThrow({ where: { id: requestId } })).status).toBe("open");
    stream.stop();
  });

  it("sends nothing for another user's request that only its owner may answer", async () => {
    const viewer = await newUser(db, "user");
    const stranger = await newUser(db, "user");
    const stream = follow(viewer);
    const first = await stream.next();

    await parkRequest({ db, engine }, { owner: stranger, text: "book a flight" });
    await stream.settled();
    // Had the stranger's request moved the viewer's inbox, its change would be queued first.
    await parkRequest({ db, engine }, { owner: viewer, text: "book a flight" });
    const next = await stream.next();
    expect(next).toEqual({ event: "changed", data: await versionOf(viewer) });
    expect(next?.data).not.toBe(first?.data);
    stream.stop();
  });

  it("does not even check for another user's activity in a user's inbox", async () => {
    const viewer = await newUser(db, "user");
    const stranger = await newUser(db, "user");
    const scheduled = countScheduledChecks(QUIET_MS);
    const stream = follow(viewer, { coalesceMs: QUIET_MS });
    await stream.next();

    const theirs = await parkRequest({ db, engine }, { owner: stranger, text: "refund order 7003 for $250" });
    await ownerOfThreadKnown(threadOwners, theirs.threadId);
    expect(scheduled()).toBe(0);

    // The viewer's own request is worth checks, and shows in their inbox.
    const mine = await parkRequest({ db, engine }, { owner: viewer, text: "book a flight" });
    await ownerOfThreadKnown(threadOwners, mine.threadId);
    expect(scheduled()).toBeGreaterThan(0);
    expect(await stream.next()).toEqual({ event: "changed", data: await versionOf(viewer) });
  });

  it("checks for every user's activity in a reviewer's inbox", async () => {
    const reviewer = await newUser(db, "reviewer");
    const user = await newUser(db, "user");
    const scheduled = countScheduledChecks(QUIET_MS);
    const stream = follow(reviewer, { coalesceMs: QUIET_MS });
    await stream.next();

    // Only its owner may answer this one, yet a reviewer's inbox takes notices on trust.
    const theirs = await parkRequest({ db, engine }, { owner: user, text: "book a flight" });
    await ownerOfThreadKnown(threadOwners, theirs.threadId);
    expect(scheduled()).toBeGreaterThan(0);
  });

  it("ends when the viewer goes away and leaves no timer running", async () => {
    const viewer = await newUser(db, "user");
    const before = activeTimers();
    // A long quiet period, so that a check is still waiting when the viewer leaves.
    const stream = follow(viewer, { coalesceMs: 60_000 });
    await stream.next();
    await bus.publish(RESYNC_NOTICE);
    expect(activeTimers()).toBe(before + 2);
    stream.stop();
    expect(await stream.next()).toBeNull();
    expect(activeTimers()).toBe(before);
  });

  it("ends at once for a request already gone", async () => {
    const viewer = await newUser(db, "user");
    const controller = new AbortController();
    controller.abort();
    const before = activeTimers();
    const response = openInboxStream({ actor: viewer, signal: controller.signal }, { db, bus, threadOwners });
    expect(await sseReader(response.body!)()).toBeNull();
    expect(activeTimers()).toBe(before);
  });
});
