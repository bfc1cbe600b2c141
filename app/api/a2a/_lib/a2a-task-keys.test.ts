import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { asTask, listQuery, send, text } from "./testing/a2a-fixture";
import { withA2AServer } from "./testing/with-a2a-server";

// What a client that restarts relies on (ADR 0085), with the SDK's client over real HTTP on both
// databases: a contextId of its choosing names one chat, ListTasks finds that chat's tasks page
// by page, and the same message sent again is the task it started, not a second run.

describe.each(["sqlite", "postgres"] as const)("A2A task keys on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  const { clientOf } = withA2AServer((started) => ({ db, engine } = started), provider);

  it("keeps a chosen contextId as one chat, and lists its tasks newest first, page by page", async () => {
    const { person, client } = await clientOf();
    const ids: string[] = [];
    for (const words of ["help", "what can you do?", "help"]) {
      const task = asTask(await client.sendMessage(send([text(words)], { contextId: "deploys-of-web" })));
      expect(task.contextId).toBe("deploys-of-web");
      ids.push(task.id);
    }
    expect(await db.thread.findMany({ where: { userId: person.id }, select: { contextKey: true } })).toEqual([
      { contextKey: "deploys-of-web" },
    ]);

    const first = await client.listTasks(listQuery("deploys-of-web", { pageSize: 2 }));
    expect(first.tasks.map((task) => task.id)).toEqual([ids[2], ids[1]]);
    expect(first).toMatchObject({ pageSize: 2, totalSize: 3, nextPageToken: expect.any(String) });
    expect(first.tasks[0]?.artifacts).toHaveLength(1);
    const second = await client.listTasks(
      listQuery("deploys-of-web", { pageSize: 2, pageToken: first.nextPageToken }),
    );
    expect(second.tasks.map((task) => task.id)).toEqual([ids[0]]);
    expect(second.nextPageToken).toBe("");

    const working = await client.listTasks({
      ...listQuery("deploys-of-web"),
      status: TaskState.TASK_STATE_WORKING,
    });
    expect(working.tasks).toEqual([]);
    const lean = await client.listTasks({ ...listQuery(""), includeArtifacts: false });
    expect(lean.tasks.map((task) => task.artifacts.length)).toEqual([0, 0, 0]);
    expect((await client.listTasks(listQuery("no-such-context"))).tasks).toEqual([]);
  });

  it("takes the same message sent again as the task it started: one run, and later messages go on", async () => {
    const { person, client } = await clientOf();
    const ask = send([text("refund order 4321 for $250")], { contextId: "refund-4321" });
    ask.message.messageId = "refund-4321-ask";
    const parked = asTask(await client.sendMessage(ask));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    const again = asTask(await client.sendMessage(ask));
    expect(again).toMatchObject({ id: parked.id, status: { state: TaskState.TASK_STATE_INPUT_REQUIRED } });
    const streamed = [];
    for await (const event of client.sendMessageStream(ask)) streamed.push(event);
    expect(streamed[0]?.payload).toMatchObject({ $case: "task", value: { id: parked.id } });
    // Both at once, as two restarted processes might: the unique key lets one run start.
    const racing = send([text("what can you do?")], { contextId: "racing" });
    racing.message.messageId = "racing-1";
    const [one, two] = await Promise.all([client.sendMessage(racing), client.sendMessage(racing)]);
    expect(asTask(one).id).toBe(asTask(two).id);
    expect(await db.run.count({ where: { userId: person.id } })).toBe(2);
  });
});
