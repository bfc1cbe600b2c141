import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

describe.each<TestProvider>(["sqlite", "postgres"])("reading a request on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("shows a reviewers' request to a reviewer and to the chat's owner, who may not answer it", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair to read" });
    const [approval] = (await readRunState(suite.database.db, runId)).requests;
    for (const actor of [suite.people.reviewer, suite.people.owner]) {
      const request = await engine.readRequest({ requestId: approval!.id, actor });
      expect(request).toMatchObject({
        id: approval!.id,
        audience: "reviewers",
        status: "open",
        answer: null,
      });
    }
    await engine.stop();
  });

  it("refuses bad input, unknown ids and strangers with typed errors and changes nothing", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair to refuse" });
    const before = await readRunState(suite.database.db, runId);
    const [approval] = before.requests;
    const { owner, stranger } = suite.people;

    const attempts: [Promise<unknown>, string][] = [
      [engine.readRequest({ requestId: "", actor: owner }), "bad_request:input"],
      [
        engine.readRequest({ requestId: approval!.id, actor: { id: owner.id, role: "root" as never } }),
        "bad_request:input",
      ],
      [engine.readRequest({ requestId: "no-such-request", actor: owner }), "not_found:request"],
      // A stranger learns no more than from an unknown id.
      [engine.readRequest({ requestId: approval!.id, actor: stranger }), "not_found:request"],
    ];
    // Every refusal is caught as it is made: they all run at once, and any may come first.
    const refusals = attempts.map(([attempt, code]) => [rejection(attempt), code] as const);
    for (const [refusal, code] of refusals) {
      const error = await refusal;
      expect(isAppError(error) && error.code).toBe(code);
    }
    expect(await readRunState(suite.database.db, runId)).toEqual(before);
    await engine.stop();
  });
});
