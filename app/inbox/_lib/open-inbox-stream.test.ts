import { afterEach, describe, expect, it } from "vitest";
import {
  abortFollowedStreams,
  activeTimers,
  followVersionStream,
  sseReader,
} from "@/app/_lib/follow-version-stream";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/client";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { type InboxStreamOptions, openInboxStream } from "./open-inbox-stream";

let db: Db;
let engine: Engine;
let bus: EventBus;
withTestEngine((started) => ({ db, engine, bus } = started));

afterEach(abortFollowedStreams);

function follow(viewer: SessionUser, options: InboxStreamOptions = {}) {
  return followVersionStream(
    bus,
    (signal, withOptions) => openInboxStream({ actor: viewer, signal }, { db, bus }, withOptions),
    options,
  );
}

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

  it("ends when the viewer goes away and leaves no timer running", async () => {
    const viewer = await newUser(db, "user");
    const before = activeTimers();
    // A long quiet period, so that a check is still waiting when the viewer leaves.
    const stream = follow(viewer, { coalesceMs: 60_000 });
    await stream.next();
    await bus.publish({ threadId: "elsewhere", seq: 2 });
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
    const response = openInboxStream({ actor: viewer, signal: controller.signal }, { db, bus });
    expect(await sseReader(response.body!)()).toBeNull();
    expect(activeTimers()).toBe(before);
  });
});
