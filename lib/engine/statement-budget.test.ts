import { afterAll, describe, expect, it } from "vitest";
import { createLoggedDb, type LoggedQuery } from "@/lib/db/testing/logged-db";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { memoryLog } from "./testing/scripted-agent";

// What one park and one answer cost in statements, as Prisma sends them (its log shows each
// COMMIT but not the BEGIN). Each statement is a round trip on PostgreSQL and a pass through
// Prisma's client on both, so a change that adds one to this path should have to say why.

const sqlOf = (queries: LoggedQuery[]) => queries.map((query) => query.sql.replace(/\s+/g, " ").trim());
const commits = (statements: string[]) => statements.filter((sql) => sql === "COMMIT").length;
// Prisma's statements name `main`/"public" before the table; the hot path's (ADR 0045) only on PostgreSQL.
const table = (name: string) =>
  new RegExp(`(FROM|INTO|UPDATE) ([\`"](main|public)[\`"]\\.)?[\`"]${name}[\`"]`);
// Counted as Prisma logs them; on SQLite also the answer's transaction up to and including its
// COMMIT (with the request read before it). On PostgreSQL the answer is one statement (ADR 0051).
// A resolution in a transaction writes its asker's "decided" mail notice with one INSERT … SELECT
// that adds no row unless they chose that mail: one statement more on SQLite, none on PostgreSQL,
// where it is a CTE of the answer's statement.
const budgets = {
  sqlite: { park: 21, answer: 22, answersTransaction: 10 },
  postgres: { park: 18, answer: 11 },
} satisfies Record<TestProvider, object>;

describe.each<TestProvider>(["sqlite", "postgres"])(
  "the statements of a park and an answer on %s",
  (provider) => {
    const suite = useEngineSuite(provider);
    const budget = budgets[provider];
    const clients: { $disconnect(): Promise<void> }[] = [];
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.$disconnect()));
    });

    it("parks in three transactions and resumes from the answer's own", async () => {
      const threadId = await suite.freshThread();
      const logged = createLoggedDb({ url: suite.database.url, provider });
      clients.push(logged.db);
      // Events gathered between saves are written on their own once `textFlushMs` has passed
      // (so a chat sees a long answer grow); a save takes whatever is still gathered. How far
      // apart the saves are is up to the machine, so a short flush would add a commit of its
      // own now and then. Here the events always wait for the save: what is counted is the
      // saves themselves.
      const engine = makeTestEngine({ db: logged.db, log: memoryLog(), textFlushMs: 60_000 });
      const { runId } = await engine.startRun({ threadId, userId: suite.people.owner.id, message: "ask me" });
      await engine.idle();
      const park = sqlOf(logged.queries.splice(0));

      // The start, the safe point after the model's turn, and the park.
      expect(commits(park)).toBe(3);
      expect(park.length).toBeLessThanOrEqual(budget.park);
      // The start checks the thread in the write that queues starts; nobody counts the stored
      // messages back; a request opened by this park has no mail notice to look for.
      expect(park.filter((sql) => /^SELECT/.test(sql) && table("Thread").test(sql))).toEqual([]);
      expect(park.filter((sql) => sql.includes("MAX("))).toEqual([]);
      expect(park.filter((sql) => /^SELECT/.test(sql) && table("MailNotice").test(sql))).toEqual([]);
      expect(park.filter((sql) => /^INSERT/.test(sql) && table("MailNotice").test(sql))).toHaveLength(1);

      const [request] = (await readRunState(suite.database.db, runId)).requests;
      await engine.answerRequest({
        requestId: request!.id,
        answer: { ok: true, data: { name: "Bo" } },
        actor: suite.people.owner,
      });
      await engine.idle();
      const answer = sqlOf(logged.queries.splice(0));

      // SQLite: the answer's transaction (with the run's claim), the safe point after the tool,
      // and the finish. PostgreSQL: the answer is one statement of its own, with no transaction
      // (ADR 0051), then the same two.
      expect(commits(answer)).toBe(provider === "postgres" ? 2 : 3);
      expect(answer.length).toBeLessThanOrEqual(budget.answer);
      if (provider === "postgres") {
        // The request read, then the statement that claims the run and the request, writes the
        // answer, audit entry, event and outbox: none of those is a statement of its own.
        const claim = answer.findIndex((sql) => table("Run").test(sql) && sql.includes("leaseOwner"));
        expect(claim).toBeLessThanOrEqual(1);
        expect(answer.slice(0, claim).every((sql) => /^SELECT/.test(sql))).toBe(true);
        for (const name of ["Request", "Answer", "AuditLog", "Thread", "Event", "WebhookMessage"])
          expect(answer[claim]).toMatch(table(name));
        // The run's transcript is read once, when the resumed run asks for it after the answered
        // call started (ADR 0054).
        expect(
          answer.slice(claim + 1).filter((sql) => /^SELECT/.test(sql) && table("Message").test(sql)),
        ).toHaveLength(1);
      } else {
        const answered = answer.indexOf("COMMIT");
        expect(answered + 1).toBeLessThanOrEqual(budgets.sqlite.answersTransaction);
        // The run left "pending" in the answer's transaction, so the first thing after its
        // commit is reading the transcript to resume from, not another claim.
        expect(
          answer.slice(0, answered).filter((sql) => table("Run").test(sql) && sql.includes("leaseOwner")),
        ).toHaveLength(1);
        expect(answer[answered + 1]).toMatch(table("Message"));
      }

      const state = await readRunState(suite.database.db, runId);
      expect(state.run.status).toBe("done");
      expect(state.run.openRequests).toBe(0);
      expect(state.requests.map((row) => row.status)).toEqual(["answered"]);
      expect(await suite.database.db.mailNotice.count({ where: { requestRowId: request!.id } })).toBe(1);
      await engine.stop();
    });
  },
);
