import { describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { readEscalationSteps } from "./read-escalation-steps";

// What a chat card reads of a request's escalation (ADR 0093): the steps that fired, for whoever
// may see the request; anyone else is told it does not exist.

describe("reading a request's fired escalation steps", () => {
  let db: Db;
  let engine: Engine;
  withTestEngine((started) => ({ db, engine } = started));

  it("lists the fired steps for its owner and hides the request from a stranger", async () => {
    const owner = await newUser(db, "user");
    const stranger = await newUser(db, "user");
    const { request } = await engine.createRequest({
      owner,
      apiTokenId: "token",
      request: {
        kind: "approval",
        prompt: "Ship?",
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
      escalation: [
        { after: "5m", action: "remind" },
        { after: "10m", action: "remind" },
      ],
      idempotencyKey: null,
      createHash: "h",
    });
    const read = (actor: typeof owner) =>
      readEscalationSteps({ actor, input: { requestId: request.id } }, { db, engine });
    expect(await read(owner)).toEqual([]);
    await db.requestEscalationStep.updateMany({
      where: { requestRowId: request.id, position: 0 },
      data: { dueAt: new Date(Date.now() - 1_000) },
    });
    expect(await engine.escalateDueRequests()).toBe(1);
    expect(await read(owner)).toMatchObject([{ position: 0, action: "remind", firedAt: expect.any(String) }]);
    await expect(read(stranger)).rejects.toMatchObject({ code: "not_found:request" });
  });
});
