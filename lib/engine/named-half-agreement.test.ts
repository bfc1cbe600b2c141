import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setAbsence } from "@/lib/db/absences";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import { listNamedHalfIds } from "@/lib/db/named-half";
import { getBareRequestById } from "@/lib/db/requests";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { countWaitingRequestsByViewer } from "@/lib/db/waiting-requests";
import type { Actor } from "@/lib/domain/roles";
import { coverOn } from "./covering";
import type { Engine } from "./engine-types";
import { isAddedAddressee } from "./ladder-addressees";
import { makeTestEngine } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { makeGroup, makePerson } from "./testing/group-fixture";
import { memoryLog } from "./testing/scripted-agent";

// The inbox's named half (lib/db/named-half.ts) lists exactly what the engine lets its viewer act
// on beyond their other halves: what a ladder added them to (ADR 0093), and what names someone
// they cover for (ADR 0098). Each request below is asked of both, and their answers must agree.

const HOUR = 3_600_000;

describe.each<TestProvider>(["sqlite", "postgres"])(
  "the named half agrees with the engine on %s",
  (provider) => {
    const suite = useEngineSuite(provider);
    const db = () => suite.database.db;
    let engine: Engine;

    const emailOf = async (actor: Actor) =>
      (await db().user.findUniqueOrThrow({ where: { id: actor.id } })).email!;

    async function ask(owner: Actor, kind: string, extra: Record<string, unknown> = {}) {
      engine ??= makeTestEngine({ db: db(), log: memoryLog() });
      const { request } = await engine.createRequest({
        owner,
        apiTokenId: "token-1",
        request: {
          kind,
          prompt: `${kind} of ${owner.id}`,
          expiresAt: new Date(Date.now() + HOUR).toISOString(),
        },
        idempotencyKey: null,
        createHash: "h",
        ...extra,
      });
      return request.id;
    }

    const approve = (id: string, actor: Actor) =>
      engine.answerRequest({ requestId: id, actor, answer: { ok: true } });

    async function fireLadders() {
      await db().requestEscalationStep.updateMany({ data: { dueAt: new Date(Date.now() - 1_000) } });
      await engine.escalateDueRequests();
    }

    async function away(person: Actor, delegate: Actor, startedMsAgo = 60_000) {
      const now = new Date();
      await setAbsence({
        db: db(),
        userId: person.id,
        delegateEmail: await emailOf(delegate),
        startsAt: new Date(now.getTime() - startedMsAgo),
        endsAt: new Date(now.getTime() + HOUR),
        actorId: person.id,
        now,
      });
    }

    /** Whether the engine lets `viewer` act on it beyond their other halves: added, or covering. */
    async function engineLets(viewer: Actor, id: string): Promise<string | null> {
      const request = (await getBareRequestById({ db: db(), id }))!;
      if (request.audience !== "owner" && (await isAddedAddressee(db(), request, viewer.id)))
        return viewer.id;
      const cover = await coverOn(db(), request, viewer);
      return cover.status === "covering" ? cover.principal.userId : null;
    }

    /** The open rows of the viewer's named half among `ids`, each with whom it is acted on for. */
    async function listed(viewer: Actor, ids: readonly string[]): Promise<Map<string, string>> {
      const named = new Set(await listNamedHalfIds({ db: db(), viewer, status: "open" }));
      const { rows } = await listInboxRequests({
        db: db(),
        query: { viewer, status: "open", sort: "newest", page: 1, pageSize: 50 },
      });
      const shown = rows.filter((row) => ids.includes(row.id) && named.has(row.id));
      expect(shown).toHaveLength([...named].filter((id) => ids.includes(id)).length);
      return new Map(shown.map((row) => [row.id, row.coveringFor?.userId ?? viewer.id]));
    }

    it("with several principals, lists a request one of them asked for where another is named on it", async () => {
      await suite.freshThread();
      const sam = await makePerson(db(), "sam");
      const rita = await makePerson(db(), "rita");
      const una = await makePerson(db(), "una");
      const other = await makePerson(db(), "other");
      const both = await makeGroup(db(), [una, rita], "both");
      const unas = await makeGroup(db(), [una, other], "unas");
      const cases = {
        // Una asked; Rita, a member, is named: Sam acts for Rita.
        groupOfBoth: await ask(una, "approval", { audience: { group: both, required: 1 } }),
        // Una asked; only Una of Sam's principals is named: no one acts for the asker.
        groupOfUna: await ask(una, "approval", { audience: { group: unas, required: 1 } }),
        // Una asked; a ladder added Rita, or a group Rita is in: Sam acts for Rita.
        addsRita: await ask(una, "approval", {
          escalation: [{ after: "10m", action: { add: await emailOf(rita) } }],
        }),
        addsBoth: await ask(una, "approval", { escalation: [{ after: "10m", action: { add: both } }] }),
        // Una asked and a ladder added Una herself: still the asker's own.
        addsUna: await ask(una, "approval", {
          escalation: [{ after: "10m", action: { add: await emailOf(una) } }],
        }),
        // Sam asked: Sam approves it for nobody (four eyes).
        samsOwn: await ask(sam, "approval", { audience: { group: both, required: 1 } }),
        // Una's own question is hers to hand on.
        unasQuestion: await ask(una, "question"),
      };
      await fireLadders();
      const waiting = () => countWaitingRequestsByViewer({ db: db(), viewer: sam });
      const before = await waiting();
      // Sam's own group request waits for its group's votes, never his: the engine refuses the asker.
      expect(before).toBe(0);
      await away(rita, sam, 120_000);
      await away(una, sam);
      const ids = Object.values(cases);

      const inbox = await listed(sam, ids);
      for (const [name, id] of Object.entries(cases))
        expect(inbox.get(id) ?? null, name).toBe(await engineLets(sam, id));
      expect(Object.fromEntries(Object.entries(cases).map(([name, id]) => [name, inbox.get(id)]))).toEqual({
        groupOfBoth: rita.id,
        groupOfUna: undefined,
        addsRita: rita.id,
        addsBoth: rita.id,
        addsUna: undefined,
        samsOwn: undefined,
        unasQuestion: una.id,
      });
      // The header's count and the live version read the same half.
      expect((await waiting()) - before).toBe(inbox.size);
      const version = await getInboxVersionByViewer({ db: db(), viewer: sam });
      await db().request.update({
        where: { id: cases.groupOfBoth },
        data: { escalatedAt: new Date(Date.now() + HOUR) },
      });
      expect(await getInboxVersionByViewer({ db: db(), viewer: sam })).not.toBe(version);
    });

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

    it("lists what a ladder added a person to who was given an account after it was copied", async () => {
      await suite.freshThread();
      const asker = await makePerson(db(), "asker");
      const email = `late-${randomUUID()}@example.test`;
      const requestId = await ask(asker, "approval", {
        escalation: [{ after: "10m", action: { add: ` ${email.toUpperCase()}` } }],
      });
      await fireLadders();
      const late = await db().user.create({ data: { role: "user", name: "late", email } });
      const newcomer: Actor = { id: late.id, role: "user" };
      expect(await engineLets(newcomer, requestId)).toBe(late.id);
      expect(await listed(newcomer, [requestId])).toEqual(new Map([[requestId, late.id]]));
      expect(await countWaitingRequestsByViewer({ db: db(), viewer: newcomer })).toBe(1);

      // And whoever covers for them while they are away, for them.
      const sam = await makePerson(db(), "sam");
      await away(newcomer, sam);
      expect(await engineLets(sam, requestId)).toBe(late.id);
      expect(await listed(sam, [requestId])).toEqual(new Map([[requestId, late.id]]));
      expect(await countWaitingRequestsByViewer({ db: db(), viewer: sam })).toBe(1);
    });
  },
);
