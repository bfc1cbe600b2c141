import { type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { createAppTestEngine, newUser } from "@/app/_lib/test-engine";
import { tokenFor } from "@/app/api/mcp/_lib/testing/mcp-fixture";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase } from "@/lib/db/testing/test-database";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus } from "@/lib/engine/event-bus";
import { addressToGroup, makeGroup, makePerson } from "@/lib/engine/testing/group-fixture";
import {
  a2aClient,
  asTask,
  data,
  parkedRequestOf,
  send,
  serveA2AOverHttp,
  taskQuery,
  text,
  textOfTask,
} from "./testing/a2a-fixture";
import { type ServedA2A, withA2AServer } from "./testing/with-a2a-server";

// A task's life over A2A on both databases: streaming, cancel (the chat's Stop), an A2A answer
// racing the inbox, and a restart while the task is input-required.

const COLOUR = { "My favourite colour?": "green" };

function statesOf(events: StreamResponse[]): TaskState[] {
  return events.flatMap(({ payload }) =>
    payload?.$case === "task" || payload?.$case === "statusUpdate" ? [payload.value.status!.state] : [],
  );
}

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe.each(["sqlite", "postgres"] as const)("A2A tasks on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  let served: ServedA2A;
  const { clientOf } = withA2AServer((started) => ({ db, engine, served } = started), provider);

  it("streams a task to input-required, then its answer to completed with the artifact", async () => {
    const { client } = await clientOf();
    const asked = await collect(client.sendMessageStream(send([text("ask me about my favourite colour")])));
    expect(asked[0]?.payload?.$case).toBe("task");
    expect(statesOf(asked).at(-1)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const task = (asked[0]!.payload as { value: Task }).value;

    const answer = send([data({ answer: { ok: true, data: COLOUR } })], {
      taskId: task.id,
      contextId: task.contextId,
    });
    const answered = await collect(client.sendMessageStream(answer));
    expect(statesOf(answered).at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifact = answered.find((event) => event.payload?.$case === "artifactUpdate");
    expect(JSON.stringify(artifact)).toContain("My favourite colour? → green");
  });

  it("cancels a parked task as the chat's Stop, and refuses a second cancel", async () => {
    const { client } = await clientOf();
    const parked = asTask(await client.sendMessage(send([text("refund order 4321 for $250")])));
    const requestId = parkedRequestOf(parked).id as string;
    const cancelled = await client.cancelTask({ ...taskQuery(parked.id), metadata: {} });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await engine.idle();
    expect(await db.run.findUniqueOrThrow({ where: { id: parked.id } })).toMatchObject({
      status: "cancelled",
    });
    expect(await db.request.findUniqueOrThrow({ where: { id: requestId } })).toMatchObject({
      status: "cancelled",
    });
    await expect(client.cancelTask({ ...taskQuery(parked.id), metadata: {} })).rejects.toThrow(
      /already ended/,
    );
  });

  it("holds a group's sign-off: the asker's answer is refused, the members' votes complete it", async () => {
    const { client } = await clientOf();
    const parked = asTask(await client.sendMessage(send([text("refund order 4321 for $250")])));
    const requestId = parkedRequestOf(parked).id as string;
    const members = [await makePerson(db, "ann", "reviewer"), await makePerson(db, "bo", "reviewer")];
    await addressToGroup(db, requestId, await makeGroup(db, members), 2);
    const approve = send([data({ answer: { ok: true } })], { taskId: parked.id });
    await expect(client.sendMessage(approve)).rejects.toThrow(/Only members of the approver group/);

    const vote = (actor: (typeof members)[number]) =>
      engine.answerRequest({
        requestId,
        actor,
        answer: (request) => ({ ok: true, data: { arguments: request.args } }),
      });
    await vote(members[0]!);
    expect((await client.getTask(taskQuery(parked.id))).status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    await vote(members[1]!);
    await engine.idle();
    expect((await client.getTask(taskQuery(parked.id))).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("takes exactly one of an A2A answer and an inbox answer racing", async () => {
    const { person, client } = await clientOf();
    const parked = asTask(await client.sendMessage(send([text("ask me about my favourite colour")])));
    const requestId = parkedRequestOf(parked).id as string;
    const overA2A = client.sendMessage(
      send([data({ answer: { ok: true, data: { "My favourite colour?": "teal" } } })], { taskId: parked.id }),
    );
    const inInbox = engine.answerRequest({ requestId, actor: person, answer: { ok: true, data: COLOUR } });
    const outcomes = await Promise.allSettled([overA2A, inInbox]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    await engine.idle();
    expect(await db.answer.count({ where: { requestRowId: requestId } })).toBe(1);
    expect(await db.event.count({ where: { runId: parked.id, type: "run_finished" } })).toBe(1);
    const done = await client.getTask(taskQuery(parked.id));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOfTask(done)).toMatch(/My favourite colour\? → (teal|green)/);
  });
});

describe.each(["sqlite", "postgres"] as const)("an A2A task across a restart on %s", (provider) => {
  it("is found by a fresh process while input-required, and completes once answered there", async () => {
    const { db, drop } = await createTestDatabase(provider);
    const first = createAppTestEngine({ db, bus: createMemoryEventBus(), instanceId: "before-restart" });
    const second = createAppTestEngine({ db, bus: createMemoryEventBus(), instanceId: "after-restart" });
    try {
      const person = await newUser(db, "user");
      const { token } = await tokenFor(db, person, ["a2a"]);
      const before = await serveA2AOverHttp({ db, engine: first });
      const parked = asTask(
        await (await a2aClient(before.base, token)).sendMessage(
          send([text("ask me about my favourite colour")]),
        ),
      );
      expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      await first.idle();
      await first.stop();
      await before.close();

      const after = await serveA2AOverHttp({ db, engine: second });
      try {
        const client = await a2aClient(after.base, token);
        expect((await client.getTask(taskQuery(parked.id))).status?.state).toBe(
          TaskState.TASK_STATE_INPUT_REQUIRED,
        );
        const answer = send([data({ answer: { ok: true, data: COLOUR } })], { taskId: parked.id });
        const done = asTask(await client.sendMessage(answer));
        expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(textOfTask(done)).toContain("→ green");
      } finally {
        await after.close();
      }
    } finally {
      await second.idle();
      await second.stop();
      await drop();
    }
  });
});
