import { describe, expect, it } from "vitest";
import { appErrorCode } from "@/app/_lib/app-error-code";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus, EventNotice } from "@/lib/engine/event-bus";
import type { AppError } from "@/lib/errors";
import { takeDurationMs, takeRequest } from "./take-request";

let db: Db;
let engine: Engine;
let bus: EventBus;
withTestEngine((started) => ({ db, engine, bus } = started));

describe("takeRequest", () => {
  it("lets a reviewer take an approval, tells the live inbox, and keeps a colleague off it without blocking their answer", async () => {
    const owner = await newUser(db, "user");
    const rita = await newUser(db, "reviewer");
    const sam = await newUser(db, "reviewer");
    const { requestId } = await parkRequest({ db, engine }, { owner, text: "deploy v2.0 to production" });
    const heard: EventNotice[] = [];
    const stop = bus.listenAll((notice) => heard.push(notice));
    const taken = await takeRequest({ actor: rita, input: { requestId, take: true } }, { db, bus });
    stop();
    expect(taken).toMatchObject({ taken: true });
    const row = await db.request.findUniqueOrThrow({ where: { id: requestId } });
    expect(row.takenById).toBe(rita.id);
    expect(heard).toEqual([{ threadId: row.threadId, seq: 0 }]);

    const refused = await takeRequest({ actor: sam, input: { requestId, take: true } }, { db, bus }).catch(
      (error: unknown) => error as AppError,
    );
    expect((refused as AppError).code).toBe("conflict:request_taken");
    expect((refused as AppError).message).toBe(`${rita.name} is already on it.`);

    // Taken is a hint, not a lock: the colleague's answer goes through.
    await engine.answerRequest({ requestId, actor: sam, answer: { ok: false, reason: "declined" } });
    expect(
      await appErrorCode(takeRequest({ actor: rita, input: { requestId, take: true } }, { db, bus })),
    ).toBe("conflict:request_closed");
  });

  it("refuses users, and treats an owner's own request and an unknown id alike", async () => {
    const owner = await newUser(db, "user");
    const rita = await newUser(db, "reviewer");
    const { requestId } = await parkRequest({ db, engine }, { owner, text: "book a flight" });
    expect(
      await appErrorCode(takeRequest({ actor: owner, input: { requestId, take: true } }, { db, bus })),
    ).toBe("forbidden:role");
    expect(
      await appErrorCode(takeRequest({ actor: rita, input: { requestId, take: true } }, { db, bus })),
    ).toBe("not_found:request");
    expect(
      await appErrorCode(takeRequest({ actor: rita, input: { requestId: "nope", take: true } }, { db, bus })),
    ).toBe("not_found:request");
    expect((await db.request.findUniqueOrThrow({ where: { id: requestId } })).takenById).toBeNull();
  });

  it("lets the holder let go, after which a colleague may take it", async () => {
    const owner = await newUser(db, "user");
    const rita = await newUser(db, "reviewer");
    const sam = await newUser(db, "reviewer");
    const { requestId } = await parkRequest({ db, engine }, { owner, text: "deploy v2.1 to production" });
    await takeRequest({ actor: rita, input: { requestId, take: true } }, { db, bus });
    await takeRequest({ actor: rita, input: { requestId, take: false } }, { db, bus });
    expect(await takeRequest({ actor: sam, input: { requestId, take: true } }, { db, bus })).toMatchObject({
      taken: true,
    });
  });

  it("lapses after ten minutes unless configured otherwise", () => {
    expect(takeDurationMs({})).toBe(600_000);
    expect(takeDurationMs({ TOOLNEXUS_TAKE_SECONDS: "15" })).toBe(15_000);
    expect(takeDurationMs({ TOOLNEXUS_TAKE_SECONDS: "soon" })).toBe(600_000);
  });
});
