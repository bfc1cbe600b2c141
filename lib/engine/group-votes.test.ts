import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Actor } from "@/lib/domain/roles";
import { isAppError } from "@/lib/errors";
import { makeTestEngine, readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { addressToGroup, makeGroup, makePerson, votesOf } from "./testing/group-fixture";
import { memoryLog } from "./testing/scripted-agent";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

const refusal = async (promise: Promise<unknown>) => {
  const error = await rejection(promise);
  return isAppError(error) ? error.code : String(error);
};

const asShown = { ok: true, data: { arguments: { amount: 2500 } } };

const amountSchema = {
  type: "object",
  properties: {
    arguments: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
    note: { type: "string" },
  },
  required: ["arguments"],
  additionalProperties: false,
};

describe.each<TestProvider>(["sqlite", "postgres"])("votes of an approver group on %s", (provider) => {
  const suite = useEngineSuite(provider);
  const db = () => suite.database.db;

  /** A run parked on one approval, addressed to a group of `size` members (and the asker too). */
  async function parkedForGroup(size: number, required: number) {
    const started = await startRunOnFreshThread(suite, { message: "again please" });
    const [approval] = (await readRunState(db(), started.runId)).requests;
    const members: Actor[] = [];
    for (let i = 0; i < size; i += 1) members.push(await makePerson(db(), `m${i}`));
    const slug = await makeGroup(db(), [...members, suite.people.owner]);
    await addressToGroup(db(), approval!.id, slug, required);
    return { ...started, requestId: approval!.id, members, slug };
  }

  /** A request made through the API, with arguments to edit, addressed to a group. */
  async function apiRequestForGroup(size: number, required: number) {
    await suite.freshThread();
    const engine = makeTestEngine({ db: db(), log: memoryLog() });
    const members: Actor[] = [];
    for (let i = 0; i < size; i += 1) members.push(await makePerson(db(), `m${i}`));
    const slug = await makeGroup(db(), members);
    const { request } = await engine.createRequest({
      owner: suite.people.owner,
      apiTokenId: "token-1",
      request: {
        kind: "approval",
        prompt: "Refund order 1234?",
        data: { arguments: { amount: 2500 }, schema: amountSchema },
      },
      audience: { group: slug, required },
      idempotencyKey: null,
      createHash: "h",
    });
    return { engine, requestId: request.id, members, slug };
  }

  it("20 final votes racing: exactly one settles the request and the run resumes once; the rest are kept as too late", async () => {
    const { engine, log, runId, requestId, members } = await parkedForGroup(22, 3);
    const approve = (actor: Actor) => engine.answerRequest({ requestId, actor, answer: { ok: true } });
    for (const early of members.slice(0, 2)) {
      expect((await approve(early)).request.status).toBe("open");
    }
    const outcomes = await Promise.allSettled(members.slice(2).map(approve));
    await engine.idle();

    const settled = outcomes.filter((o) => o.status === "fulfilled");
    expect(settled).toHaveLength(1);
    const losers = outcomes.filter((o) => o.status === "rejected");
    expect(losers.map((o) => isAppError(o.reason) && o.reason.code)).toEqual(
      Array(19).fill("conflict:vote_late"),
    );
    const votes = await votesOf(db(), requestId);
    expect(votes).toHaveLength(22);
    expect(votes.filter((v) => v.status === "counted")).toHaveLength(3);
    expect(votes.filter((v) => v.status === "late")).toHaveLength(19);

    const state = await readRunState(db(), runId);
    const request = state.requests.find((r) => r.id === requestId)!;
    expect(request.status).toBe("answered");
    expect((request.answer!.data as { approvers: string[] }).approvers).toHaveLength(3);
    expect(state.events.filter((e) => e.type === "request_resolved")).toHaveLength(1);
    // The tool ran again with the answer exactly once.
    expect(log.entries.filter((e) => e.tool === "approve" && e.answer)).toHaveLength(1);
    await engine.stop();
  });

  it("four eyes: the asker may not vote even as a member; outsiders are refused; nothing is recorded", async () => {
    const { engine, requestId } = await parkedForGroup(2, 1);
    const { owner, admin, reviewer } = suite.people;
    const vote = (actor: Actor) => refusal(engine.answerRequest({ requestId, actor, answer: { ok: true } }));
    expect(await vote(owner)).toBe("forbidden:four_eyes");
    expect(await vote(admin)).toBe("forbidden:request");
    expect(await vote(reviewer)).toBe("not_found:request");
    expect(await votesOf(db(), requestId)).toEqual([]);
    expect(
      (await readRunState(db(), (await db().request.findUniqueOrThrow({ where: { id: requestId } })).runId!))
        .run.status,
    ).toBe("pending");
    await engine.stop();
  });

  it("refuses a second vote by one person, whichever way it goes", async () => {
    const { engine, requestId, members } = await parkedForGroup(3, 2);
    const rita = members[0]!;
    await engine.answerRequest({ requestId, actor: rita, answer: { ok: true } });
    expect(await refusal(engine.answerRequest({ requestId, actor: rita, answer: { ok: true } }))).toBe(
      "conflict:vote",
    );
    expect(
      await refusal(
        engine.answerRequest({ requestId, actor: rita, answer: { ok: false, data: { reason: "no" } } }),
      ),
    ).toBe("conflict:vote");
    expect(await votesOf(db(), requestId)).toMatchObject([{ voterId: rita.id, ok: true, status: "counted" }]);
    const row = await db().request.findUniqueOrThrow({ where: { id: requestId } });
    expect(row.status).toBe("open");
    await engine.stop();
  });

  it("edited arguments void earlier approvals of others, and the approved arguments are the answer's", async () => {
    const { engine, requestId, members } = await apiRequestForGroup(3, 2);
    const [rita, sam, tom] = members as [Actor, Actor, Actor];
    await engine.answerRequest({
      requestId,
      actor: rita,
      answer: { ok: true, data: { arguments: { amount: 2500 } } },
    });
    const edited = await engine.answerRequest({
      requestId,
      actor: sam,
      answer: { ok: true, data: { arguments: { amount: 2000 }, note: "partial refund" } },
    });
    expect(edited.request.status).toBe("open");
    expect(edited.request.request.data?.arguments).toEqual({ amount: 2000 });
    expect((await votesOf(db(), requestId)).map((v) => [v.voterId, v.status])).toEqual([
      [rita.id, "void"],
      [sam.id, "counted"],
    ]);
    const audit = await db().auditLog.findMany({
      where: { targetId: requestId, action: "request.vote_voided" },
    });
    expect(audit.map((a) => (a.detail as { voterId: string }).voterId)).toEqual([rita.id]);

    const { request } = await engine.answerRequest({
      requestId,
      actor: tom,
      answer: { ok: true, data: { arguments: { amount: 2000 } } },
    });
    expect(request.status).toBe("answered");
    expect(request.answer?.data).toMatchObject({
      arguments: { amount: 2000 },
      approvers: [expect.stringContaining("m1-"), expect.stringContaining("m2-")],
    });
    expect(request.answer?.data?.note).toContain("partial refund");
    await engine.stop();
  });

  it("expires part-way: the approval given stays recorded, later votes are refused as expired", async () => {
    const { engine, requestId, members } = await apiRequestForGroup(3, 2);
    await engine.answerRequest({ requestId, actor: members[0]!, answer: asShown });
    await db().request.update({ where: { id: requestId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await engine.expireDueRequests()).toBe(1);
    const row = await db().request.findUniqueOrThrow({ where: { id: requestId }, include: { answer: true } });
    expect([row.status, row.answer?.reason]).toEqual(["expired", "expired"]);
    expect(await refusal(engine.answerRequest({ requestId, actor: members[1]!, answer: asShown }))).toBe(
      "expired:request",
    );
    expect((await votesOf(db(), requestId)).map((v) => v.status)).toEqual(["counted"]);
    await engine.stop();
  });

  it("a decline after one approval answers it declined with the reason, and the run goes on with it", async () => {
    const { engine, log, runId, requestId, members } = await parkedForGroup(3, 2);
    await engine.answerRequest({ requestId, actor: members[0]!, answer: { ok: true } });
    const { request } = await engine.answerRequest({
      requestId,
      actor: members[1]!,
      answer: { ok: false, data: { reason: "not this month" } },
    });
    expect(request.answer).toMatchObject({
      ok: false,
      reason: "declined",
      data: { reason: "not this month" },
    });
    await engine.idle();
    // A declined call never runs; the model is told and goes on (this script asks a name next).
    expect(log.entries.filter((e) => e.tool === "approve" && e.answer)).toEqual([]);
    const state = await readRunState(db(), runId);
    expect(state.requests.map((r) => [r.toolName, r.status])).toEqual([
      ["approve", "answered"],
      ["ask_name", "open"],
    ]);
    // A vote after it was settled is kept, as too late.
    expect(await refusal(engine.answerRequest({ requestId, actor: members[2]!, answer: { ok: true } }))).toBe(
      "conflict:vote_late",
    );
    await engine.stop();
  });

  it("a removed member's recorded vote keeps counting; they cannot vote again", async () => {
    const { engine, requestId, members, slug } = await apiRequestForGroup(3, 2);
    await engine.answerRequest({ requestId, actor: members[0]!, answer: asShown });
    const group = await db().approverGroup.findUniqueOrThrow({ where: { slug } });
    await db().approverGroupMember.delete({
      where: { groupId_userId: { groupId: group.id, userId: members[0]!.id } },
    });
    const { request } = await engine.answerRequest({ requestId, actor: members[1]!, answer: asShown });
    expect(request.status).toBe("answered");
    expect((request.answer!.data as { approvers: string[] }).approvers).toHaveLength(2);
    await engine.stop();
  });
});
