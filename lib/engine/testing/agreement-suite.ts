import { expect } from "vitest";
import { setAbsence } from "@/lib/db/absences";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import { listNamedHalfIds } from "@/lib/db/named-half";
import { getBareRequestById } from "@/lib/db/requests";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Actor } from "@/lib/domain/roles";
import { coverOn } from "../covering";
import type { Engine } from "../engine-types";
import { isAddedAddressee } from "../ladder-addressees";
import { makeTestEngine } from "./engine-fixture";
import { useEngineSuite } from "./engine-suite";
import { memoryLog } from "./scripted-agent";

// What the tests that ask the engine and the inbox the same questions share: requests asked
// through the engine, absences, fired ladders, and each side's answer to "whom may the viewer
// act for on this request".

const HOUR = 3_600_000;

/** Registers a database of its own for the calling `describe` block, with the helpers that read it. */
export function useAgreementSuite(provider: TestProvider) {
  const suite = useEngineSuite(provider);
  const db = () => suite.database.db;
  let made: Engine | undefined;
  const engine = () => {
    made ??= makeTestEngine({ db: db(), log: memoryLog() });
    return made;
  };

  const emailOf = async (actor: Actor) =>
    (await db().user.findUniqueOrThrow({ where: { id: actor.id } })).email!;

  async function ask(owner: Actor, kind: string, extra: Record<string, unknown> = {}) {
    const { request } = await engine().createRequest({
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
    engine().answerRequest({ requestId: id, actor, answer: { ok: true } });

  async function fireLadders() {
    await db().requestEscalationStep.updateMany({ data: { dueAt: new Date(Date.now() - 1_000) } });
    await engine().escalateDueRequests();
  }

  /** `person` is away from `startedMsAgo` for an hour, and `delegate` covers for them. */
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
    if (request.audience !== "owner" && (await isAddedAddressee(db(), request, viewer.id))) return viewer.id;
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

  return { suite, db, engine, emailOf, ask, approve, fireLadders, away, engineLets, listed };
}
