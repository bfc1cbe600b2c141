import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ThreadEvent } from "@/lib/domain/events";
import { addEventOutbox } from "./events";
import { answerRequestTakingRun, resolveRequest } from "./resolve-request";
import { cancelRunById } from "./run-endings";
import { sql } from "./sql/hot-sql";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

// Every event reaches the log through its one writer (events.ts), whichever way a request is
// resolved and however the statements are sent: one statement on PostgreSQL, a transaction
// elsewhere. An outbox added to the writer is how a later feature (a chat notice, say) would
// learn of answers, so it must be handed each one, at the seq it was stored at.

describe.each<TestProvider>(["sqlite", "postgres"])("an answer's events on %s", (provider) => {
  let database: TestDatabase;
  const seen: ThreadEvent[] = [];
  let removeOutbox: () => void = () => {};
  const row = {
    ownerId: "u-owner",
    kind: "input",
    audience: "owner",
    prompt: "Name?",
    minutesAgo: 1,
  } as const;
  const answer = (id: string) => ({
    status: "answered" as const,
    answer: { id: `pnd-${id}`, ok: true, data: { name: "Bo" } },
    actorId: "u-owner",
  });
  const lease = (leaseOwner: string) => ({ leaseOwner, leaseExpiresAt: new Date(Date.UTC(2031, 0, 1)) });

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    await db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
    for (const id of ["r-taken", "r-counted", "r-expired", "r-cancelled"])
      await insertInboxRequest({ db, row: { ...row, id } });
    await db.webhookEndpoint.create({
      data: {
        id: "we-on",
        url: "https://hooks.example.test/in",
        secretEnc: "sealed",
        events: ["request.answered"],
      },
    });
    removeOutbox = addEventOutbox({
      async write({ events }) {
        seen.push(...events);
      },
      compose(events) {
        // The events' seqs are filled in once the statement has run: these are those objects.
        seen.push(...events);
        return {
          before: [],
          guard: sql`true`,
          after: [],
          columns: sql`0 AS "seenByTest"`,
          crowded: () => false,
        };
      },
    });
  });
  afterAll(async () => {
    removeOutbox();
    await database?.drop();
  });

  async function resolvedInLog(requestRowId: string) {
    const request = await database.db.request.findUniqueOrThrow({ where: { id: requestRowId } });
    const events = await database.db.event.findMany({
      where: { threadId: request.threadId, type: "request_resolved" },
    });
    return events.map((event) => ({ threadId: event.threadId, seq: event.seq }));
  }

  const seenFor = (requestRowId: string) =>
    seen
      .filter((event) => event.type === "request_resolved" && event.id === requestRowId)
      .map((event) => ({ threadId: event.threadId, seq: event.seq }));

  it("hands the writer's outboxes every resolution's event, at the seq it was stored at", async () => {
    const { db } = database;
    // The answer that takes its run (PostgreSQL's one statement), one that only counts it off
    // (a transaction everywhere), an expiry, and a Stop's cancel.
    const taken = await answerRequestTakingRun({
      db,
      id: "r-taken",
      resolution: answer("r-taken"),
      lease: lease("instance-a"),
    });
    expect(taken).toMatchObject({ claimed: true, takenRun: { status: "running", leaseOwner: "instance-a" } });
    const counted = await resolveRequest({ db, id: "r-counted", resolution: answer("r-counted") });
    expect(counted).toMatchObject({ claimed: true, takenRun: null });
    const expired = await resolveRequest({
      db,
      id: "r-expired",
      resolution: { status: "expired", actorId: null },
    });
    expect(expired).toMatchObject({ claimed: true });
    const { runId } = await db.request.findUniqueOrThrow({ where: { id: "r-cancelled" } });
    const stopped = await cancelRunById({ db, runId: runId!, actorId: "u-owner" });
    expect(stopped).toMatchObject({ status: "cancelled" });
    for (const id of ["r-taken", "r-counted", "r-expired", "r-cancelled"]) {
      const stored = await resolvedInLog(id);
      expect(stored, id).toHaveLength(1);
      expect(seenFor(id), id).toEqual(stored);
    }
    // The webhook outbox, beside it, wrote the answers' messages as well.
    expect(await db.webhookMessage.count({ where: { type: "request.answered" } })).toBe(2);
  });

  it("hands them nothing stored for a claim that lost", async () => {
    const before = seen.length;
    const late = await resolveRequest({ db: database.db, id: "r-taken", resolution: answer("r-taken") });
    expect(late).toEqual({ claimed: false });
    const again = await answerRequestTakingRun({
      db: database.db,
      id: "r-counted",
      resolution: answer("r-counted"),
      lease: lease("instance-b"),
    });
    expect(again).toEqual({ claimed: false });
    // A composed statement is built before its claim is tried: what it was handed has no seq.
    expect(seen.slice(before).filter((event) => event.seq > 0)).toEqual([]);
  });
});
