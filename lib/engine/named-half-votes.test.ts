import { describe, expect, it } from "vitest";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { countWaitingRequestsByViewer } from "@/lib/db/waiting-requests";
import { useAgreementSuite } from "./testing/agreement-suite";
import { makeGroup, makePerson } from "./testing/group-fixture";

// The header's waiting count holds a group's vote until the vote its viewer may cast there is in,
// as the engine decides whom they vote as (cast-vote.ts): themselves as a member or a ladder's
// addition, else a member they cover for (ADR 0098); and each person casts once per request.

describe.each<TestProvider>(["sqlite", "postgres"])(
  "the waiting count agrees with the engine's votes on %s",
  (provider) => {
    const { suite, db, emailOf, ask, approve, fireLadders, away, engineLets, listed } =
      useAgreementSuite(provider);

    it("counts a vote as waiting until the person the viewer votes for or as has voted", async () => {
      await suite.freshThread();
      const sam = await makePerson(db(), "sam");
      const rita = await makePerson(db(), "rita");
      const asker = await makePerson(db(), "asker");
      const other = await makePerson(db(), "other");
      const ritas = await makeGroup(db(), [rita, other], "ritas");
      const cases = {
        // Sam votes for Rita, a member, while she is away; or Rita votes herself.
        bySam: await ask(asker, "approval", { audience: { group: ritas, required: 2 } }),
        byRita: await ask(asker, "approval", { audience: { group: ritas, required: 2 } }),
        // A ladder added Sam himself: he votes as himself, not for Rita.
        addsSam: await ask(asker, "approval", {
          audience: { group: ritas, required: 2 },
          escalation: [{ after: "10m", action: { add: await emailOf(sam) } }],
        }),
      };
      await fireLadders();
      await away(rita, sam);
      const waiting = () => countWaitingRequestsByViewer({ db: db(), viewer: sam });
      expect(await waiting()).toBe(3);

      await approve(cases.bySam, sam);
      await approve(cases.byRita, rita);
      await approve(cases.addsSam, rita);
      // Rita's vote is not Sam's: the request Sam was added to still waits for his own.
      expect(await waiting()).toBe(1);
      await approve(cases.addsSam, sam);
      expect(await waiting()).toBe(0);
      // The engine agrees: each person's vote counts once, so Sam has none left to cast.
      for (const id of [cases.bySam, cases.byRita])
        await expect(approve(id, sam)).rejects.toMatchObject({
          code: expect.stringMatching(/^conflict:vote/),
        });
      // And the inbox still lists them, open, each for the person voted for.
      expect(await listed(sam, [cases.bySam, cases.byRita])).toEqual(
        new Map([
          [cases.bySam, rita.id],
          [cases.byRita, rita.id],
        ]),
      );
    });

    it("counts for an admin the votes of a group they are not in while they cover a member", async () => {
      await suite.freshThread();
      const ada = await makePerson(db(), "ada", "admin");
      const rita = await makePerson(db(), "rita");
      const asker = await makePerson(db(), "asker");
      const other = await makePerson(db(), "other");
      const ritas = await makeGroup(db(), [rita, asker, other], "ritas");
      const adas = await makeGroup(db(), [ada, rita], "adas");
      const cases = {
        // Ada votes for Rita, a member, while she is away; or Rita votes herself.
        byAda: await ask(asker, "approval", { audience: { group: ritas, required: 2 } }),
        byRita: await ask(asker, "approval", { audience: { group: ritas, required: 2 } }),
        // Nobody votes for the asker (four eyes): Rita's own, and Ada's own.
        ritasOwn: await ask(rita, "approval", { audience: { group: ritas, required: 1 } }),
        adasOwn: await ask(ada, "approval", { audience: { group: ritas, required: 1 } }),
        // Ada's own group's vote waits for her as a member, and once only.
        adasGroup: await ask(asker, "approval", { audience: { group: adas, required: 1 } }),
      };
      // An admin's count holds every open request to the reviewers, earlier ones included.
      const reviewers = await db().request.count({ where: { status: "open", audience: "reviewers" } });
      const waiting = async () => (await countWaitingRequestsByViewer({ db: db(), viewer: ada })) - reviewers;
      expect(await waiting()).toBe(1);
      await away(rita, ada);
      // Beyond her own group's vote, which she casts as a member, the engine lets her vote for Rita.
      const { adasGroup: _, ...ritasCases } = cases;
      const lets = Object.fromEntries(
        await Promise.all(
          Object.entries(ritasCases).map(async ([name, id]) => [name, await engineLets(ada, id)]),
        ),
      );
      expect(lets).toEqual({ byAda: rita.id, byRita: rita.id, ritasOwn: null, adasOwn: null });
      expect(await waiting()).toBe(3);

      await approve(cases.byAda, ada);
      await approve(cases.byRita, rita);
      expect(await waiting()).toBe(1);
      // The engine agrees: Ada has cast hers on one, and Rita's own is in on the other.
      for (const id of [cases.byAda, cases.byRita])
        await expect(approve(id, ada)).rejects.toMatchObject({
          code: expect.stringMatching(/^conflict:vote/),
        });
      await approve(cases.adasGroup, ada);
      expect(await waiting()).toBe(0);
    });

    it.each(["user", "admin"] as const)(
      "counts no vote for a %s who joined a group after casting theirs there for a member they cover",
      async (role) => {
        await suite.freshThread();
        const ada = await makePerson(db(), "ada", role);
        const rita = await makePerson(db(), "rita");
        const asker = await makePerson(db(), "asker");
        const other = await makePerson(db(), "other");
        const ritas = await makeGroup(db(), [rita, asker, other], "ritas");
        const cases = {
          // Ada votes here for Rita while she covers her, and then joins Rita's group.
          forRita: await ask(asker, "approval", { audience: { group: ritas, required: 2 } }),
          // Ada casts nothing here: once a member, it waits for her own vote.
          untouched: await ask(asker, "approval", { audience: { group: ritas, required: 2 } }),
        };
        // An admin's count holds every open request to the reviewers, earlier ones included.
        const reviewers =
          role === "admin"
            ? await db().request.count({ where: { status: "open", audience: "reviewers" } })
            : 0;
        const waiting = async () =>
          (await countWaitingRequestsByViewer({ db: db(), viewer: ada })) - reviewers;
        await away(rita, ada);
        expect(await engineLets(ada, cases.forRita)).toBe(rita.id);
        expect(await waiting()).toBe(2);
        await approve(cases.forRita, ada);
        expect(await waiting()).toBe(1);

        const group = await db().approverGroup.findUniqueOrThrow({ where: { slug: ritas } });
        await db().approverGroupMember.create({ data: { groupId: group.id, userId: ada.id } });
        // A member votes as themselves, but Ada has cast her one vote on the first: the engine
        // refuses her another, and the count holds only the second, now hers as a member.
        await expect(approve(cases.forRita, ada)).rejects.toMatchObject({
          code: "conflict:vote",
          message: expect.stringContaining(await emailOf(rita)),
        });
        expect(await waiting()).toBe(1);
        // The inbox lists both, and names her among those who may still vote on the second only.
        const { rows } = await listInboxRequests({
          db: db(),
          query: { viewer: ada, status: "open", sort: "newest", page: 1, pageSize: 50 },
        });
        const mayStillVote = (id: string) => rows.find((row) => row.id === id)?.tally?.stillToVote;
        expect(mayStillVote(cases.forRita)).toEqual(["other"]);
        expect(mayStillVote(cases.untouched)?.sort()).toEqual(["ada", "other", "rita"]);
        await approve(cases.untouched, ada);
        expect(await waiting()).toBe(0);
      },
    );
  },
);
