import { describe, expect, it } from "vitest";
import { appErrorCode } from "@/app/_lib/app-error-code";
import { type Sse, sseReader } from "@/app/_lib/follow-version-stream";
import { newThread, newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { openRunStream } from "./open-run-stream";
import { startChatRun } from "./start-chat-run";

let db: Db;
let engine: Engine;
withTestEngine((started) => ({ db, engine } = started));

type Chunk = { type: string; [key: string]: unknown };

/** Reads the stream's events as chunks until `until` matches one (inclusive) or the stream ends. */
async function readChunks(
  next: () => Promise<Sse | null>,
  until: (chunk: Chunk) => boolean = () => false,
): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for (let event = await next(); event; event = await next()) {
    if (event.data === "[DONE]") continue;
    const chunk = JSON.parse(event.data) as Chunk;
    chunks.push(chunk);
    if (until(chunk)) return chunks;
  }
  return chunks;
}

/** Parks a run of `owner` on `text`, then opens the thread's stream as its owner would. */
async function followParkedRun(owner: SessionUser, text: string) {
  const { threadId } = await parkRequest({ db, engine }, { owner, text });
  const controller = new AbortController();
  const response = await openRunStream(
    { actor: owner, input: { threadId }, signal: controller.signal },
    { engine, db },
  );
  return { controller, reader: sseReader(response.body!) };
}

describe("openRunStream", () => {
  it("replays a finished run whole and closes", async () => {
    const user = await newUser(db, "user");
    const threadId = await newThread(db, user);
    const { runId } = await startChatRun(
      { actor: user, input: { threadId, text: "deploy api v2.0 to staging" } },
      { engine, db },
    );
    await engine.idle();
    const response = await openRunStream({ actor: user, input: { threadId, runId } }, { engine, db });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const chunks = await readChunks(sseReader(response.body!));
    expect(chunks[0]).toEqual({ type: "start", messageId: `run-${runId}` });
    expect(chunks.at(-1)).toEqual({ type: "finish" });
    const tool = chunks.filter((c) => c.type === "data-tool").at(-1);
    expect(tool).toMatchObject({ data: { name: "deploy", state: "done" } });
    const text = chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => c.delta)
      .join("");
    expect(text).toContain("staging");
  });

  it("answers 204 when the thread has no active run", async () => {
    const user = await newUser(db, "user");
    const threadId = await newThread(db, user);
    const response = await openRunStream({ actor: user, input: { threadId } }, { engine, db });
    expect(response.status).toBe(204);
  });

  it("attaches to a parked run and follows it live once a reviewer answers", async () => {
    const user = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { controller, reader } = await followParkedRun(user, "deploy v1.4 to production");
    const parked = await readChunks(
      reader,
      (c) => c.type === "data-run" && (c.data as any).status === "pending",
    );
    const card = parked.find((c) => c.type === "data-request") as unknown as { id: string; data: any };
    expect(card.data.view).toMatchObject({ audience: "reviewers", status: "open", toolName: "deploy" });

    await submitAnswer(
      {
        actor: reviewer,
        input: {
          requestId: card.id,
          answer: {
            ok: true,
            data: { arguments: { service: "web", version: "v1.4", environment: "production" } },
          },
        },
      },
      { engine },
    );
    const rest = await readChunks(reader);
    expect(rest.find((c) => c.type === "data-request")).toMatchObject({
      id: card.id,
      data: { resolution: { status: "answered", ok: true, actorId: reviewer.id } },
    });
    expect(rest.filter((c) => c.type === "data-tool").at(-1)).toMatchObject({ data: { state: "done" } });
    expect(rest.at(-1)).toEqual({ type: "finish" });
    controller.abort();
  });

  it("tells the open chat at once when an escalation step fires, though it writes no event", async () => {
    const user = await newUser(db, "user");
    const { controller, reader } = await followParkedRun(user, "deploy v3.1 to production");
    const parked = await readChunks(
      reader,
      (c) => c.type === "data-run" && (c.data as any).status === "pending",
    );
    const card = parked.find((c) => c.type === "data-request") as unknown as { id: string };
    expect(parked.some((c) => c.type === "data-changed")).toBe(false);
    await db.requestEscalationStep.create({
      data: {
        requestRowId: card.id,
        position: 0,
        after: "1m",
        kind: "remind",
        action: "remind",
        dueAt: new Date(Date.now() - 1_000),
      },
    });
    expect(await engine.escalateDueRequests()).toBe(1);
    const next = await readChunks(reader, (c) => c.type === "data-changed");
    // Only a hint for the cards to read again: it is kept in no message, and the run goes on waiting.
    expect(next).toEqual([{ type: "data-changed", data: {}, transient: true }]);
    controller.abort();
  });

  it("stops following when the viewer goes away", async () => {
    const user = await newUser(db, "user");
    const { controller, reader } = await followParkedRun(user, "deploy v7.0 to production");
    await readChunks(reader, (c) => c.type === "data-request");
    controller.abort();
    const rest = await readChunks(reader);
    expect(rest.some((c) => c.type === "finish")).toBe(false);
  });

  it("keeps other people's threads and runs out", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const threadId = await newThread(db, owner);
    const otherThread = await newThread(db, owner);
    const { runId } = await startChatRun(
      { actor: owner, input: { threadId, text: "hello" } },
      { engine, db },
    );
    await engine.idle();
    expect(await appErrorCode(openRunStream({ actor: reviewer, input: { threadId } }, { engine, db }))).toBe(
      "not_found:thread",
    );
    expect(
      await appErrorCode(
        openRunStream({ actor: owner, input: { threadId: otherThread, runId } }, { engine, db }),
      ),
    ).toBe("not_found:run");
    expect(
      await appErrorCode(openRunStream({ actor: owner, input: { threadId, runId: "" } }, { engine, db })),
    ).toBe("bad_request:input");
  });
});
