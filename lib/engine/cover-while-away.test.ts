import { describe, expect, it } from "vitest";
import { setAbsence } from "@/lib/db/absences";
import { recordVote } from "@/lib/db/request-votes";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Actor } from "@/lib/domain/roles";
import { isAppError } from "@/lib/errors";
import type { Engine } from "./engine-types";
import { makeTestEngine, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { makeGroup, makePerson } from "./testing/group-fixture";
import { memoryLog } from "./testing/scripted-agent";

// Cover while away (ADR 0098): what is addressed to a person away also goes to their delegate,
// whose answer counts as theirs; one person's decision never counts twice; four eyes hold.

const HOUR = 3_600_000;

const refusal = async (promise: Promise<unknown>) => {
  const error = await rejection(promise);
  return isAppError(error) ? { code: error.code, message: error.message } : { code: String(error) };
};

describe.each<TestProvider>(["sqlite", "postgres"])("cover while away on %s", (provider) => {
  const suite = useEngineSuite(provider);
  const db = () => suite.database.db;
  let engine: Engine;

  async function away(person: Actor, delegate: Actor) {
    const email = (await db().user.findUniqueOrThrow({ where: { id: delegate.id } })).email!;
    const now = new Date();
    return setAbsence({
      db: db(),
      userId: person.id,
      delegateEmail: email,
      startsAt: new Date(now.getTime() - 60_000),
      endsAt: new Date(now.getTime() + HOUR),
      actorId: person.id,
      now,
    });
  }

  async function ask(
    owner: Actor,
    kind: string,
    audience?: { group: string; required: number } | "reviewers",
  ) {
    engine ??= makeTestEngine({ db: db(), log: memoryLog() });
    const { request } = await engine.createRequest({
      owner,
      apiTokenId: "token-1",
      request: { kind, prompt: "Refund order 1234?" },
      ...(audience === undefined ? {} : { audience: audience === "reviewers" ? "reviewers" : audience }),
      idempotencyKey: null,
      createHash: "h",
    });
    return request.id;
  }

  const answer = (requestId: string, actor: Actor, ok = true) =>
    engine.answerRequest({
      requestId,
      actor,
      answer: ok ? { ok: true } : { ok: false, data: { reason: "no" } },
    });

  async function people() {
    await suite.freshThread();
    return {
      rita: await makePerson(db(), "rita"),
      sam: await makePerson(db(), "sam"),
      tom: await makePerson(db(), "tom"),
      asker: await makePerson(db(), "asker"),
    };
  }

  it("the delegate answers the principal's own form; it counts as theirs, and the audit says for whom", async () => {
    const { rita, sam } = await people();
    const requestId = await ask(rita, "question");
    expect((await refusal(answer(requestId, sam))).code).toBe("not_found:request");
    await away(rita, sam);
    expect((await engine.readRequest({ requestId, actor: sam })).coveringFor?.userId).toBe(rita.id);
    const { request } = await engine.answerRequest({
      requestId,
      actor: sam,
      answer: { ok: true, data: { text: "yes" } },
    });
    expect(request.answer).toMatchObject({ actorId: sam.id, forUserId: rita.id });
    const row = await db().answer.findUniqueOrThrow({ where: { requestRowId: requestId } });
    expect([row.actorId, row.forUserId]).toEqual([sam.id, rita.id]);
    const audit = await db().auditLog.findFirstOrThrow({
      where: { targetId: requestId, action: "request.answered" },
    });
    expect(audit.actorId).toBe(sam.id);
    expect(audit.detail).toMatchObject({ for: rita.id });
    const event = await db().event.findFirst({
      where: { type: "request_resolved" },
      orderBy: { createdAt: "desc" },
    });
    expect(event?.payload).toMatchObject({ actorId: sam.id, forUserId: rita.id });
  });

  it("the owner's own answer carries no one to answer for", async () => {
    const { rita, sam } = await people();
    await away(rita, sam);
    const requestId = await ask(rita, "question");
    const { request } = await engine.answerRequest({
      requestId,
      actor: rita,
      answer: { ok: true, data: {} },
    });
    expect(request.answer?.forUserId).toBeUndefined();
  });

  it("a sign-in is never delegated, nor an approval to any reviewer", async () => {
    const { rita, sam } = await people();
    await away(rita, sam);
    const signIn = await ask(rita, "question");
    const row = await db().request.findUniqueOrThrow({ where: { id: signIn } });
    await db().request.update({
      where: { id: signIn },
      data: { kind: "authorization", payload: { ...(row.payload as object), kind: "authorization" } },
    });
    expect((await refusal(engine.readRequest({ requestId: signIn, actor: sam }))).code).toBe(
      "not_found:request",
    );
    expect((await refusal(answer(signIn, sam, false))).code).toBe("not_found:request");
    const tom = await makePerson(db(), "tom");
    const approval = await ask(tom, "approval", "reviewers");
    expect((await refusal(answer(approval, sam))).code).toBe("not_found:request");
  });

  it("after its end time the delegate is a stranger again", async () => {
    const { rita, sam } = await people();
    const absence = await away(rita, sam);
    const requestId = await ask(rita, "question");
    await db().absence.update({ where: { id: absence.id }, data: { endsAt: new Date(Date.now() - 1_000) } });
    expect((await refusal(engine.readRequest({ requestId, actor: sam }))).code).toBe("not_found:request");
    expect((await refusal(answer(requestId, sam))).code).toBe("not_found:request");
  });

  it("the delegate votes for a member away; then neither the member nor the delegate votes again", async () => {
    const { rita, sam, tom, asker } = await people();
    const slug = await makeGroup(db(), [rita, tom]);
    const requestId = await ask(asker, "approval", { group: slug, required: 2 });
    expect((await refusal(answer(requestId, sam))).code).toBe("not_found:request");
    await away(rita, sam);
    expect((await answer(requestId, sam)).request.status).toBe("open");
    const vote = await db().requestVote.findFirstOrThrow({ where: { requestRowId: requestId } });
    expect([vote.voterId, vote.castById]).toEqual([rita.id, sam.id]);
    const ritaAgain = await refusal(answer(requestId, rita));
    expect(ritaAgain.code).toBe("conflict:vote_covered");
    expect(ritaAgain.message).toMatch(/^sam-.*already voted for you/);
    const samAgain = await refusal(answer(requestId, sam));
    expect(samAgain.code).toBe("conflict:vote");
    expect(samAgain.message).toMatch(/for rita-/);
    const { request } = await answer(requestId, tom);
    expect(request.status).toBe("answered");
    expect((request.answer!.data as { approvers: string[] }).approvers).toHaveLength(2);
  });

  it("the delegate's vote settles the request for the principal: the answer names both", async () => {
    const { rita, sam, tom, asker } = await people();
    const slug = await makeGroup(db(), [rita, tom]);
    const requestId = await ask(asker, "approval", { group: slug, required: 1 });
    await away(rita, sam);
    const { request } = await answer(requestId, sam);
    expect(request.answer).toMatchObject({ actorId: sam.id, forUserId: rita.id });
    expect(request.answer?.data).toMatchObject({ approvers: [expect.stringMatching(/^rita-/)] });
  });

  it("the member votes first: their delegate is told so", async () => {
    const { rita, sam, tom, asker } = await people();
    const slug = await makeGroup(db(), [rita, tom]);
    const requestId = await ask(asker, "approval", { group: slug, required: 2 });
    await away(rita, sam);
    await answer(requestId, rita);
    const samTries = await refusal(answer(requestId, sam));
    expect(samTries.code).toBe("conflict:vote_covered");
    expect(samTries.message).toMatch(/^rita-.*already voted on this request\.$/);
  });

  it("a delegate who is also a member votes once: their own, and never again for the principal", async () => {
    const { rita, sam, tom, asker } = await people();
    const slug = await makeGroup(db(), [rita, sam, tom]);
    const requestId = await ask(asker, "approval", { group: slug, required: 3 });
    await away(rita, sam);
    await answer(requestId, sam);
    expect((await refusal(answer(requestId, sam))).code).toBe("conflict:vote");
    const votes = await db().requestVote.findMany({ where: { requestRowId: requestId } });
    expect(votes.map((v) => [v.voterId, v.castById])).toEqual([[sam.id, sam.id]]);
  });

  it("one cast per person: a delegate who voted for the principal cannot vote again once a member", async () => {
    const { rita, sam, tom, asker } = await people();
    const slug = await makeGroup(db(), [rita, tom]);
    const requestId = await ask(asker, "approval", { group: slug, required: 2 });
    await away(rita, sam);
    await answer(requestId, sam);
    const group = await db().approverGroup.findUniqueOrThrow({ where: { slug } });
    await db().approverGroupMember.create({ data: { groupId: group.id, userId: sam.id } });
    const again = await refusal(answer(requestId, sam));
    expect(again.code).toBe("conflict:vote");
    expect(again.message).toMatch(/You already voted on this request for rita-/);
  });

  it("four eyes: a delegate never approves what they asked, and no one approves the principal's own", async () => {
    const { rita, sam, tom } = await people();
    const slug = await makeGroup(db(), [rita, tom]);
    await away(rita, sam);
    const samAsked = await ask(sam, "approval", { group: slug, required: 1 });
    const bySam = await refusal(answer(samAsked, sam));
    expect(bySam.code).toBe("forbidden:four_eyes");
    expect(bySam.message).toMatch(/not even for rita-/);
    const ritaAsked = await ask(rita, "approval", { group: slug, required: 1 });
    const forRita = await refusal(answer(ritaAsked, sam));
    expect(forRita.code).toBe("forbidden:four_eyes");
    expect(await db().requestVote.count({ where: { requestRowId: { in: [samAsked, ritaAsked] } } })).toBe(0);
  });

  it("races: the delegate twice and the principal at once, exactly one vote counts", async () => {
    const { rita, sam, tom, asker } = await people();
    const slug = await makeGroup(db(), [rita, tom]);
    await away(rita, sam);
    for (let round = 0; round < 3; round += 1) {
      const requestId = await ask(asker, "approval", { group: slug, required: 2 });
      const outcomes = await Promise.allSettled([
        answer(requestId, sam),
        answer(requestId, sam),
        answer(requestId, rita),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      expect(await db().requestVote.count({ where: { requestRowId: requestId } })).toBe(1);
    }
  });

  it("the database refuses one caster's second vote for someone else, however they race", async () => {
    const { rita, sam, tom, asker } = await people();
    const slug = await makeGroup(db(), [rita, sam, tom]);
    const requestRowId = await ask(asker, "approval", { group: slug, required: 2 });
    const vote = { requestRowId, ok: true, arguments: null, argsHash: null };
    const outcomes = await Promise.all([
      recordVote({ db: db(), vote: { ...vote, voterId: sam.id, castById: sam.id } }),
      recordVote({ db: db(), vote: { ...vote, voterId: rita.id, castById: sam.id } }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["recorded", "second"]);
    expect(await db().requestVote.count({ where: { requestRowId } })).toBe(1);
  });
});
