import { describe, expect, it } from "vitest";
import { setAbsence } from "@/lib/db/absences";
import { listAuditAnswers } from "@/lib/db/audit-answers";
import { getDecisionByRequest } from "@/lib/db/decided-mail";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { listVoteTallies } from "@/lib/db/vote-tallies";
import type { Actor } from "@/lib/domain/roles";
import type { Engine } from "./engine-types";
import { makeTestEngine } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { makeGroup, makePerson } from "./testing/group-fixture";
import { memoryLog } from "./testing/scripted-agent";

// "Sam for Rita" (ADR 0098): wherever who answered is said in words, an answer or a vote given
// by someone covering for a person away names both.

describe.each<TestProvider>(["sqlite", "postgres"])("answered by Sam for Rita on %s", (provider) => {
  const suite = useEngineSuite(provider);
  const db = () => suite.database.db;
  let engine: Engine;

  async function away(person: Actor, delegate: Actor) {
    const now = new Date();
    await setAbsence({
      db: db(),
      userId: person.id,
      delegateEmail: (await db().user.findUniqueOrThrow({ where: { id: delegate.id } })).email!,
      startsAt: new Date(now.getTime() - 60_000),
      endsAt: new Date(now.getTime() + 3_600_000),
      actorId: person.id,
      now,
    });
  }

  it("the decided mail, the audit's answers and the vote tally say who voted for whom", async () => {
    await suite.freshThread();
    engine ??= makeTestEngine({ db: db(), log: memoryLog() });
    const [rita, sam, tom, asker] = [
      await makePerson(db(), "rita"),
      await makePerson(db(), "sam"),
      await makePerson(db(), "tom"),
      await makePerson(db(), "asker"),
    ];
    const slug = await makeGroup(db(), [rita, tom]);
    await away(rita, sam);
    const ask = async (required: number) =>
      (
        await engine.createRequest({
          owner: asker,
          apiTokenId: "token-1",
          request: { kind: "approval", prompt: "Refund order 1234?" },
          audience: { group: slug, required },
          idempotencyKey: null,
          createHash: "h",
        })
      ).request.id;

    const open = await ask(2);
    await engine.answerRequest({ requestId: open, actor: sam, answer: { ok: true } });
    const tally = (
      await listVoteTallies({
        db: db(),
        requests: [{ id: open, ownerId: asker.id, audienceGroup: slug, required: 2 }],
      })
    ).get(open);
    expect(tally?.approvals.map((vote) => vote.name)).toEqual(["sam for rita"]);
    expect(tally?.stillToVote).toEqual(["tom"]);

    const settled = await ask(1);
    await engine.answerRequest({ requestId: settled, actor: sam, answer: { ok: true } });
    expect((await getDecisionByRequest({ db: db(), requestRowId: settled }))?.actorName).toBe("sam for rita");
    const audit = await listAuditAnswers({ db: db(), query: { actorId: sam.id, page: 1, pageSize: 10 } });
    expect(audit.rows.map((row) => row.actor?.name)).toEqual(["sam for rita"]);
  });
});
