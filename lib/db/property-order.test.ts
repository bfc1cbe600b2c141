import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpoint } from "@/lib/toolnexus/checkpoint";
import type { Request } from "@/lib/toolnexus/types";
import { createRun } from "./create-run";
import { listEventsAfterSeq } from "./events";
import { parkRun } from "./park-run";
import { markPropertyOrder, restorePropertyOrder } from "./property-order";
import { getRequestById } from "./requests";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

// Declared "wrong" for both sorts that could creep in: alphabetical, and jsonb's length-first.
const FIELDS = ["from", "to", "date", "passengers", "email"];

function formSchema() {
  const properties: Record<string, unknown> = {};
  for (const name of FIELDS) properties[name] = { type: "string", title: name };
  return {
    type: "object",
    properties: { ...properties, address: { type: "object", properties: { zip: {}, city: {} } } },
  };
}

describe("markPropertyOrder and restorePropertyOrder", () => {
  it("put the keys of every properties object back in their order, and leave no marker", () => {
    const schema = formSchema();
    const marked = markPropertyOrder({ data: { schema } });
    // What jsonb would do to the keys: sort them.
    const sortedDeep = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(sortedDeep);
      if (typeof value !== "object" || value === null) return value;
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, sortedDeep((value as Record<string, unknown>)[key])]),
      );
    };
    const restored = restorePropertyOrder(sortedDeep(marked) as typeof marked);
    expect(restored).toEqual({ data: { schema } });
    expect(Object.keys(restored.data.schema.properties)).toEqual([...FIELDS, "address"]);
    expect(Object.keys(restored.data.schema.properties.address.properties)).toEqual(["zip", "city"]);
    expect(JSON.stringify(restored)).not.toContain("x-toolnexus");
  });

  it("leave values without properties as they are", () => {
    const value = { a: [1, { b: null }], properties: "not an object" };
    expect(restorePropertyOrder(markPropertyOrder(value))).toEqual(value);
  });
});

describe.each<TestProvider>(["sqlite", "postgres"])("a parked form's field order on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("survives storing the request and its pending event", async () => {
    const { db } = database;
    const user = await db.user.create({ data: { email: `order-${provider}@example.test` } });
    const thread = await db.thread.create({ data: { userId: user.id, title: "flight" } });
    const leaseOwner = "instance-1";
    const started = await createRun({
      db,
      threadId: thread.id,
      userId: user.id,
      model: "m",
      content: "book a flight",
      leaseOwner,
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    if (started.status !== "created") throw new Error(`the thread is ${started.status}`);
    const request: Request = {
      id: "pnd-order-1",
      kind: "input",
      prompt: "Details?",
      data: { schema: formSchema() },
    };
    const call = { id: "c1", name: "book_flight", args: {} };
    const checkpoint = createCheckpoint({
      runId: started.runId,
      model: "m",
      messages: [
        { role: "user", content: "book a flight" },
        { role: "assistant", content: "", toolCalls: [call] },
      ],
      slots: [{ call, state: { status: "suspended", request } }],
      toolCalls: [],
      turns: 1,
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    });
    const events = await parkRun({
      db,
      runId: started.runId,
      threadId: thread.id,
      ownerId: user.id,
      leaseOwner,
      checkpoint,
      suspensions: [{ request, toolCallId: call.id, toolName: call.name, args: {}, audience: "owner" }],
    });
    expect(events).not.toBeNull();

    const fieldsOf = (schema: unknown) =>
      Object.keys((schema as { properties: Record<string, unknown> }).properties);
    const row = await db.request.findFirstOrThrow({ where: { runId: started.runId } });
    const stored = await getRequestById({ db, id: row.id });
    expect(fieldsOf(stored!.request.data!.schema)).toEqual([...FIELDS, "address"]);
    expect(stored!.request).toEqual(request);

    const pending = (await listEventsAfterSeq({ db, threadId: thread.id, afterSeq: 0 })).find(
      (event) => event.type === "pending",
    );
    if (pending?.type !== "pending") throw new Error("no pending event");
    expect(fieldsOf(pending.requests[0]!.request.data!.schema)).toEqual([...FIELDS, "address"]);
    expect(pending.requests[0]!.request).toEqual(request);
  });
});
