import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getInboxVersionByViewer } from "@/lib/db/inbox-version";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { countWaitingRequestsByViewer } from "@/lib/db/waiting-requests";
import type { Actor } from "@/lib/domain/roles";
import { useAgreementSuite } from "./testing/agreement-suite";
import { makeGroup, makePerson } from "./testing/group-fixture";

// The inbox's named half (lib/db/named-half.ts) lists exactly what the engine lets its viewer act
// on beyond their other halves: what a ladder added them to (ADR 0093), and what names someone
// they cover for (ADR 0098). Each request below is asked of both, and their answers must agree.
// The votes the waiting count reads from it are in named-half-votes.test.ts.

const HOUR = 3_600_000;

describe.each<TestProvider>(["sqlite", "postgres"])(
  "the named half agrees with the engine on %s",
  (provider) => {
    const { suite, db, emailOf, ask, fireLadders, away, engineLets, listed } = useAgreementSuite(provider);

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
