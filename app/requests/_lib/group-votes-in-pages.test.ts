import { describe, expect, it } from "vitest";
import { appErrorCode } from "@/app/_lib/app-error-code";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import { answerMany } from "@/app/inbox/_lib/answer-many";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import { listMailRecipientsByRequest } from "@/lib/db/mail-recipients";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Engine } from "@/lib/engine/engine-types";
import { addressToGroup, makeGroup } from "@/lib/engine/testing/group-fixture";
import { loadRequestDetail } from "./load-request-detail";
import { readVoteTally } from "./read-vote-tally";
import { submitAnswer } from "./submit-answer";

// A group's request as the pages meet it: the inbox form and bulk answers refuse the asker (four
// eyes), members' inboxes list it, and the detail shows "1 of 2" with who may still vote.

describe.each<TestProvider>(["sqlite", "postgres"])("a group's request in the pages on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  withTestEngine((started) => ({ db, engine } = started), provider);

  it("refuses the asker in the inbox, lists it for members and admins, and tallies the votes", async () => {
    const owner = await newUser(db, "reviewer");
    const [rita, sam, outsider, admin] = [
      await newUser(db, "user"),
      await newUser(db, "user"),
      await newUser(db, "user"),
      await newUser(db, "admin"),
    ];
    const { requestId, runId } = await parkRequest(
      { db, engine },
      { owner, text: "deploy v1.4 to production" },
    );
    const slug = await makeGroup(db, [owner, rita, sam]);
    await addressToGroup(db, requestId, slug, 2);
    // Mail goes to the members who may vote, not to every reviewer nor to the asker.
    const mail = await listMailRecipientsByRequest({ db, requestRowId: requestId });
    expect(mail.recipients.map((r) => r.userId).sort()).toEqual([rita.id, sam.id].sort());
    const approve = {
      ok: true,
      data: { arguments: { service: "web", version: "v1.4", environment: "production" } },
    };

    const mine = submitAnswer({ actor: owner, input: { requestId, answer: approve } }, { engine });
    expect(await appErrorCode(mine)).toBe("forbidden:four_eyes");
    const bulk = await answerMany(
      { actor: owner, input: { requestIds: [requestId], decision: { decision: "approve" } } },
      { engine },
    );
    expect(bulk).toEqual([{ id: requestId, ok: false, message: expect.stringContaining("four eyes") }]);
    expect(await db.requestVote.count({ where: { requestRowId: requestId } })).toBe(0);

    const listed = async (viewer: typeof rita) =>
      (
        await listInboxRequests({
          db,
          query: { viewer, status: "open", sort: "newest", page: 1, pageSize: 50 },
        })
      ).rows.map((row) => row.id);
    expect(await listed(rita)).toContain(requestId);
    expect(await listed(admin)).toContain(requestId);
    expect(await listed(outsider)).not.toContain(requestId);
    expect((await listed(owner)).filter((id) => id === requestId)).toHaveLength(1);

    expect(await submitAnswer({ actor: rita, input: { requestId, answer: approve } }, { engine })).toEqual({
      requestId,
      status: "open",
    });
    const detail = await loadRequestDetail({ actor: owner, requestId }, { db, engine });
    expect(detail.canAnswer).toBe(false);
    expect(detail.tally).toMatchObject({
      required: 2,
      approvals: [{ name: expect.any(String) }],
      voided: [],
    });
    expect(detail.tally?.stillToVote).toHaveLength(1);
    const forSam = await loadRequestDetail({ actor: sam, requestId }, { db, engine });
    expect(forSam.canAnswer).toBe(true);
    expect(await appErrorCode(readVoteTally({ actor: outsider, input: { requestId } }, { db, engine }))).toBe(
      "not_found:request",
    );

    expect(await submitAnswer({ actor: sam, input: { requestId, answer: approve } }, { engine })).toEqual({
      requestId,
      status: "answered",
    });
    await engine.idle();
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");
    const tally = await readVoteTally({ actor: owner, input: { requestId } }, { db, engine });
    expect(tally?.approvals).toHaveLength(2);
  });
});
