import { afterEach, describe, expect, it } from "vitest";
import { abortFollowedStreams, followVersionStream } from "@/app/_lib/follow-version-stream";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { ThreadOwnerCache } from "@/app/_lib/thread-owner-cache";
import type { SessionUser } from "@/lib/auth/session-user";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { EscalationStep } from "@/lib/domain/escalation";
import type { Engine, NewStandaloneRequest } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { makeGroup } from "@/lib/engine/testing/group-fixture";
import { openInboxStream } from "./open-inbox-stream";

// A fired escalation step (ADR 0093) shows in every inbox that lists its request without a
// reload: it moves their versions, and open inbox streams hear of it and say so.

const HOUR = 3_600_000;

describe.each<TestProvider>(["sqlite", "postgres"])("a fired escalation step on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  let bus: EventBus;
  let threadOwners: ThreadOwnerCache;
  withTestEngine((started) => ({ db, engine, bus, threadOwners } = started), provider);
  afterEach(abortFollowedStreams);

  const versionOf = (viewer: SessionUser) => getInboxVersionByViewer({ db, viewer });

  function follow(viewer: SessionUser) {
    return followVersionStream(bus, (signal, options) =>
      openInboxStream({ actor: viewer, signal }, { db, bus, threadOwners }, options),
    );
  }

  async function ask(
    owner: SessionUser,
    escalation: EscalationStep[],
    audience?: NewStandaloneRequest["audience"],
  ): Promise<string> {
    const { request } = await engine.createRequest({
      owner,
      apiTokenId: "token",
      request: { kind: "approval", prompt: "Ship it?", expiresAt: new Date(Date.now() + HOUR).toISOString() },
      ...(audience ? { audience } : {}),
      escalation,
      idempotencyKey: null,
      createHash: "h",
    });
    return request.id;
  }

  /** Makes one step due, as if its time had come, and fires it as the expiry sweep does. */
  async function fire(requestRowId: string, position: number): Promise<void> {
    await db.requestEscalationStep.updateMany({
      where: { requestRowId, position },
      data: { dueAt: new Date(Date.now() - 1_000) },
    });
    expect(await engine.escalateDueRequests()).toBe(1);
    await engine.idle();
  }

  /** Fires the step; which of `viewers` saw their version move, and what their streams said. */
  async function firedFor(viewers: Record<string, SessionUser>, requestRowId: string, position: number) {
    const before = new Map<string, string>();
    for (const [name, viewer] of Object.entries(viewers)) before.set(name, await versionOf(viewer));
    // Versions are times in milliseconds: a step fired in the same one as the last change would not show.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await fire(requestRowId, position);
    const moved: string[] = [];
    for (const [name, viewer] of Object.entries(viewers)) {
      if ((await versionOf(viewer)) !== before.get(name)) moved.push(name);
    }
    return moved;
  }

  /** The stream's next event, or a failure naming what it waited for. */
  async function heard(stream: ReturnType<typeof follow>, what: string) {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no change heard after ${what}`)), 3_000),
    );
    return Promise.race([stream.next(), timeout]);
  }

  it("moves the version of every inbox that lists the request, for a reminder, an escalation and a decline", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const stranger = await newUser(db, "user");
    const lead = await newUser(db, "user");
    const leads = await makeGroup(db, [lead], "sre-leads");
    const id = await ask(owner, [
      { after: "10m", action: "remind" },
      { after: "20m", action: { add: leads, required: 1 } },
      { after: "30m", action: { decline: "Nobody looked at it in time." } },
    ]);
    const viewers = { owner, reviewer, stranger };
    const streams = { owner: follow(owner), reviewer: follow(reviewer) };
    for (const stream of Object.values(streams)) expect((await stream.next())?.event).toBe("version");

    for (const [position, step] of ["reminder", "escalation", "decline"].entries()) {
      expect(await firedFor(viewers, id, position), step).toEqual(["owner", "reviewer"]);
      for (const [name, stream] of Object.entries(streams)) {
        const event = await heard(stream, `the ${step}, by ${name}'s inbox`);
        expect(event).toEqual({
          event: "changed",
          data: await versionOf(viewers[name as keyof typeof streams]),
        });
      }
    }
    expect((await db.request.findUniqueOrThrow({ where: { id } })).status).toBe("answered");
  });

  it("moves a group member's version when their group's request is reminded or expires", async () => {
    const owner = await newUser(db, "user");
    const member = await newUser(db, "user");
    const stranger = await newUser(db, "user");
    const slug = await makeGroup(db, [member]);
    const id = await ask(
      owner,
      [
        { after: "10m", action: "remind" },
        { after: "20m", action: "expire" },
      ],
      { group: slug, required: 1 },
    );
    const viewers = { owner, member, stranger };
    const stream = follow(member);
    expect((await stream.next())?.event).toBe("version");

    for (const [position, step] of ["reminder", "expiry"].entries()) {
      expect(await firedFor(viewers, id, position), step).toEqual(["owner", "member"]);
      expect(await heard(stream, `the ${step}`)).toEqual({ event: "changed", data: await versionOf(member) });
    }
    expect((await db.request.findUniqueOrThrow({ where: { id } })).status).toBe("expired");
  });
});
