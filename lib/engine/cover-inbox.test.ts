import { describe, expect, it } from "vitest";
import { setAbsence } from "@/lib/db/absences";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import { listNamedHalfIds } from "@/lib/db/named-half";
import { explainQuery } from "@/lib/db/testing/explain-query";
import { createLoggedDb } from "@/lib/db/testing/logged-db";
import { expectNoScan } from "@/lib/db/testing/plan-checks";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { countWaitingRequestsByViewer } from "@/lib/db/waiting-requests";
import type { Actor } from "@/lib/domain/roles";
import { useAgreementSuite } from "./testing/agreement-suite";
import { makeGroup, makePerson } from "./testing/group-fixture";

// Who sees what while someone is away (ADR 0098), and whom a ladder added (ADR 0093): the inbox
// list, its live version and the waiting count agree, and it all stops when the absence ends.

const HOUR = 3_600_000;

describe.each<TestProvider>(["sqlite", "postgres"])("the inbox of a delegate on %s", (provider) => {
  const { suite, db, engine, emailOf, ask } = useAgreementSuite(provider);

  const inbox = async (viewer: Actor) =>
    (
      await listInboxRequests({
        db: db(),
        query: { viewer, status: "open", sort: "newest", page: 1, pageSize: 50 },
      })
    ).rows;

  it("lists what is addressed to the person away, says for whom, and stops when the absence ends", async () => {
    await suite.freshThread();
    const rita = await makePerson(db(), "rita");
    const sam = await makePerson(db(), "sam");
    const asker = await makePerson(db(), "asker");
    const slug = await makeGroup(db(), [rita, asker]);
    const question = await ask(rita, "question");
    const signIn = await ask(rita, "question");
    const row = await db().request.findUniqueOrThrow({ where: { id: signIn } });
    await db().request.update({
      where: { id: signIn },
      data: { kind: "authorization", payload: { ...(row.payload as object), kind: "authorization" } },
    });
    const groupVote = await ask(asker, "approval", { audience: { group: slug, required: 1 } });
    const ritasOwnVote = await ask(rita, "approval", { audience: { group: slug, required: 1 } });
    const anyReviewer = await ask(asker, "approval");

    const before = {
      version: await getInboxVersionByViewer({ db: db(), viewer: sam }),
      rows: await inbox(sam),
    };
    expect(before.rows).toEqual([]);
    expect(await countWaitingRequestsByViewer({ db: db(), viewer: sam })).toBe(0);

    const now = new Date();
    const absence = await setAbsence({
      db: db(),
      userId: rita.id,
      delegateEmail: await emailOf(sam),
      startsAt: new Date(now.getTime() - 60_000),
      endsAt: new Date(now.getTime() + HOUR),
      actorId: rita.id,
      now,
    });
    const rows = await inbox(sam);
    expect(rows.map((r) => r.id).sort()).toEqual([question, groupVote].sort());
    for (const listed of rows)
      expect(listed.coveringFor).toEqual({ userId: rita.id, email: await emailOf(rita) });
    for (const hidden of [signIn, ritasOwnVote, anyReviewer])
      expect(rows.map((r) => r.id)).not.toContain(hidden);
    expect(await countWaitingRequestsByViewer({ db: db(), viewer: sam })).toBe(2);
    const during = await getInboxVersionByViewer({ db: db(), viewer: sam });
    expect(during).not.toBe(before.version);
    // Rita's own inbox does not double: her question once, her group's vote once.
    const ritas = (await inbox(rita)).map((r) => r.id);
    expect(new Set(ritas).size).toBe(ritas.length);
    expect(ritas).toEqual(expect.arrayContaining([question, groupVote]));

    await db().absence.update({ where: { id: absence.id }, data: { endsAt: new Date(Date.now() - 1_000) } });
    expect(await inbox(sam)).toEqual([]);
    expect(await countWaitingRequestsByViewer({ db: db(), viewer: sam })).toBe(0);
    expect(await getInboxVersionByViewer({ db: db(), viewer: sam })).toBe(before.version);
  });

  it("an admin covering a member: each row once, and the group's vote says for whom", async () => {
    await suite.freshThread();
    const rita = await makePerson(db(), "rita");
    const boss = await makePerson(db(), "boss", "admin");
    const asker = await makePerson(db(), "asker");
    const other = await makePerson(db(), "other");
    const slug = await makeGroup(db(), [rita, other]);
    const question = await ask(rita, "question");
    const groupVote = await ask(asker, "approval", { audience: { group: slug, required: 2 } });
    const now = new Date();
    await setAbsence({
      db: db(),
      userId: rita.id,
      delegateEmail: await emailOf(boss),
      startsAt: new Date(now.getTime() - 60_000),
      endsAt: new Date(now.getTime() + HOUR),
      actorId: boss.id,
      now,
    });
    const rows = (await inbox(boss)).filter((r) => [question, groupVote].includes(r.id));
    expect(rows.map((r) => r.id).sort()).toEqual([question, groupVote].sort());
    for (const row of rows) expect(row.coveringFor?.userId).toBe(rita.id);

    // The admin votes for Rita, then joins her group: the row is theirs as a member's now, still
    // listed once, and waits for no vote of theirs, who cast their one there already.
    await engine().answerRequest({ requestId: groupVote, actor: boss, answer: { ok: true } });
    const group = await db().approverGroup.findUniqueOrThrow({ where: { slug } });
    await db().approverGroupMember.create({ data: { groupId: group.id, userId: boss.id } });
    const joined = (await inbox(boss)).filter((r) => r.id === groupVote);
    expect(joined).toHaveLength(1);
    expect(joined[0]!.coveringFor).toBeUndefined();
    expect(joined[0]!.tally?.stillToVote).toEqual(["other"]);
    const reviewers = await db().request.count({ where: { status: "open", audience: "reviewers" } });
    // Rita's question, beside every request to the reviewers.
    expect(await countWaitingRequestsByViewer({ db: db(), viewer: boss })).toBe(reviewers + 1);
  });

  it("a person a fired ladder step added sees the request in their inbox; not before it fires", async () => {
    await suite.freshThread();
    const tom = await makePerson(db(), "tom");
    const asker = await makePerson(db(), "asker");
    const requestId = await ask(asker, "approval", {
      escalation: [{ after: "10m", action: { add: await emailOf(tom) } }],
    });
    expect((await inbox(tom)).map((r) => r.id)).toEqual([]);
    const before = await getInboxVersionByViewer({ db: db(), viewer: tom });
    await db().requestEscalationStep.updateMany({
      where: { requestRowId: requestId },
      data: { dueAt: new Date(Date.now() - 1_000) },
    });
    expect(await engine().escalateDueRequests()).toBe(1);
    const rows = await inbox(tom);
    expect(rows.map((r) => r.id)).toEqual([requestId]);
    expect(rows[0]!.coveringFor).toBeUndefined();
    expect(await getInboxVersionByViewer({ db: db(), viewer: tom })).not.toBe(before);
    expect(await countWaitingRequestsByViewer({ db: db(), viewer: tom })).toBe(1);
    // A reviewer sees it once, in the reviewers' half.
    const reviewer = await makePerson(db(), "rev", "reviewer");
    const seen = (await inbox(reviewer)).filter((r) => r.id === requestId);
    expect(seen).toHaveLength(1);
  });

  it.each(["user", "reviewer", "admin"] as const)(
    "reads a covering %s's version in one statement, its named half and waiting count, by indexes",
    async (role) => {
      await suite.freshThread();
      const rita = await makePerson(db(), "rita", role);
      const sam = await makePerson(db(), "sam", role);
      await makeGroup(db(), [rita, sam]);
      const now = new Date();
      await setAbsence({
        db: db(),
        userId: rita.id,
        delegateEmail: await emailOf(sam),
        startsAt: new Date(now.getTime() - 60_000),
        endsAt: new Date(now.getTime() + HOUR),
        actorId: rita.id,
        now,
      });
      const logged = createLoggedDb({ url: suite.database.url, provider });
      try {
        await getInboxVersionByViewer({ db: logged.db, viewer: sam });
        expect(logged.queries).toHaveLength(1);
        // The list's named half and the nav's count read the same half, by the same indexes.
        await listNamedHalfIds({ db: logged.db, viewer: sam, status: "answered" });
        await countWaitingRequestsByViewer({ db: logged.db, viewer: sam });
        expect(logged.queries).toHaveLength(3);
        for (const query of logged.queries) {
          expectNoScan(provider, await explainQuery(db(), provider, query), { sorted: false });
        }
      } finally {
        await logged.db.$disconnect();
      }
    },
  );
});
