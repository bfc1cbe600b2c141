import { afterEach, describe, expect, it } from "vitest";
import { abortFollowedStreams, followVersionStream } from "@/app/_lib/follow-version-stream";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { ThreadOwnerCache } from "@/app/_lib/thread-owner-cache";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { openWaitingCountStream } from "./open-waiting-count-stream";

let db: Db;
let engine: Engine;
let bus: EventBus;
let threadOwners: ThreadOwnerCache;
withTestEngine((started) => ({ db, engine, bus, threadOwners } = started));

afterEach(abortFollowedStreams);

function follow(viewer: SessionUser) {
  return followVersionStream(bus, (signal, options) =>
    openWaitingCountStream({ actor: viewer, signal }, { db, bus, threadOwners }, options),
  );
}

describe("openWaitingCountStream", () => {
  it("sends how many requests wait for the viewer, and each new count as requests come and go", async () => {
    const user = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const userStream = follow(user);
    const reviewerStream = follow(reviewer);
    expect(await userStream.next()).toEqual({ event: "version", data: "0" });
    // Approvals other tests of this file left open count too.
    const first = await reviewerStream.next();
    expect(first?.event).toBe("version");
    const before = Number(first?.data);

    // A question waits for its owner; an approval for the reviewers, not for its owner.
    await parkRequest({ db, engine }, { owner: user, text: "book a flight" });
    expect(await userStream.next()).toEqual({ event: "changed", data: "1" });
    const { requestId } = await parkRequest(
      { db, engine },
      { owner: user, text: "deploy v3.1 to production" },
    );
    expect(await reviewerStream.next()).toEqual({ event: "changed", data: String(before + 1) });

    await engine.answerRequest({ requestId, actor: reviewer, answer: { ok: false, reason: "declined" } });
    expect(await reviewerStream.next()).toEqual({ event: "changed", data: String(before) });
    userStream.stop();
    reviewerStream.stop();
  });
});
