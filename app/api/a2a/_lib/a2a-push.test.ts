import { createHmac } from "node:crypto";
import { type Task, TaskState } from "@a2a-js/sdk";
import { LegacyJsonRpcTransport } from "@a2a-js/sdk/compat/v0_3/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { tokenFor } from "@/app/api/mcp/_lib/testing/mcp-fixture";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { ADDRESS_REFUSED_TEXT } from "@/lib/http/outbound-address";
import { testKeys } from "@/lib/notify/testing/announce";
import { startWebhookReceiver } from "@/lib/notify/testing/webhook-receiver";
import { openPushToken, sealPushToken } from "@/lib/notify/webhook-secret";
import { createWebhookWorker } from "@/lib/notify/webhook-worker";
import { createA2APushQueue } from "./push-queue";
import { a2aClient, asTask, data, send, serveA2AOverHttp, text } from "./testing/a2a-fixture";

// A task's push configs over the SDK's client and real HTTP, on both databases (ADR 0095): kept
// for the caller's own tasks, refused for private addresses, and each new state of the task sent
// to a real receiver through the webhook outbox, with the client's token and a valid signature.

const TOKEN = "client-token-7f3a";

function pushConfig(taskId: string, url: string, id = "hook-1", token = TOKEN) {
  return { tenant: "", id, taskId, url, token, authentication: undefined };
}

describe.each(["sqlite", "postgres"] as const)("A2A push notifications on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  let open: Awaited<ReturnType<typeof serveA2AOverHttp>>;
  let strict: Awaited<ReturnType<typeof serveA2AOverHttp>>;
  withTestEngine((started) => ({ db, engine } = started), provider);
  beforeAll(async () => {
    const sealToken = (rowId: string, token: string) => sealPushToken(rowId, token, testKeys);
    // As the webhook tests do, the receiver on this machine is allowed; `strict` is the default rule.
    open = await serveA2AOverHttp({ db, engine, push: { sealToken, allowPrivate: true } });
    strict = await serveA2AOverHttp({ db, engine, push: { sealToken, allowPrivate: false } });
  });
  afterAll(async () => {
    await open.close();
    await strict.close();
  });

  async function clientOf(base: string) {
    const person = await newUser(db, "user");
    const { token } = await tokenFor(db, person, ["a2a"]);
    return { person, token, client: await a2aClient(base, token) };
  }

  const worker = () =>
    createWebhookWorker({
      db,
      instanceId: `test-${Math.random()}`,
      allowPrivate: true,
      retry: { firstMs: 0, maxMs: 0, jitter: [1, 1] },
      openSecret: () => {
        throw new Error("no endpoint here");
      },
      openPushToken: (id, sealed) => openPushToken(id, sealed, testKeys),
    });

  it("sets, reads, lists and deletes a task's configs, showing the token to nobody", async () => {
    const { client, token } = await clientOf(open.base);
    const task = asTask(await client.sendMessage(send([text("refund order 4321 for $250")])));
    const url = "http://127.0.0.1:9/hooks";
    const set = await client.createTaskPushNotificationConfig(pushConfig(task.id, url));
    expect(set).toMatchObject({ id: "hook-1", taskId: task.id, url, token: "" });
    await client.createTaskPushNotificationConfig(pushConfig(task.id, `${url}/two`, "hook-2"));
    // The same id again replaces its URL.
    await client.createTaskPushNotificationConfig(pushConfig(task.id, `${url}/again`, "hook-1"));
    expect(
      await client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "hook-1" }),
    ).toMatchObject({ id: "hook-1", url: `${url}/again`, token: "" });
    const listed = await client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: task.id,
      pageSize: 10,
      pageToken: "",
    });
    expect(listed.configs.map((config) => config.id)).toEqual(["hook-1", "hook-2"]);
    const stored = await db.a2aPushConfig.findMany({ where: { runId: task.id } });
    expect(stored.every((row) => !row.tokenEnc.includes(TOKEN))).toBe(true);

    await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "hook-2" });
    await expect(
      client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "hook-2" }),
    ).rejects.toThrow(/has no push config "hook-2"/);
    for (const id of ["hook-3", "hook-4", "hook-5", "hook-6"]) {
      await client.createTaskPushNotificationConfig(pushConfig(task.id, url, id));
    }
    await expect(client.createTaskPushNotificationConfig(pushConfig(task.id, url, "hook-7"))).rejects.toThrow(
      /has 5 push configs already/,
    );
    expect(await db.a2aPushConfig.count({ where: { runId: task.id } })).toBe(5);

    // A config sent with the message that starts the task is kept for it; a refused one starts nothing.
    const withConfig = send([text("help")]);
    withConfig.configuration.taskPushNotificationConfig = pushConfig("", url, "inline");
    const started = asTask(await client.sendMessage(withConfig));
    expect(
      await client.getTaskPushNotificationConfig({ tenant: "", taskId: started.id, id: "inline" }),
    ).toMatchObject({ url });

    // A v0.3 peer sets and reads them with its own methods, on the same rows.
    const legacy = new LegacyJsonRpcTransport({ endpoint: open.endpoint });
    const options = { serviceParameters: { Authorization: `Bearer ${token}` } };
    await legacy.createTaskPushNotificationConfig(pushConfig(started.id, url, "old-peer"), options);
    const both = await legacy.listTaskPushNotificationConfig(
      { tenant: "", taskId: started.id, pageSize: 10, pageToken: "" },
      options,
    );
    expect(both.configs.map((config) => config.id)).toEqual(["inline", "old-peer"]);
  });

  it("refuses another person's task, a private address and a config without a token; nothing is stored", async () => {
    const { client } = await clientOf(strict.base);
    const { client: other } = await clientOf(strict.base);
    const task = asTask(await client.sendMessage(send([text("refund order 4321 for $250")])));
    const publicUrl = "https://hooks.example.com/a2a";
    await expect(other.createTaskPushNotificationConfig(pushConfig(task.id, publicUrl))).rejects.toThrow(
      /No task .* of yours/,
    );
    await expect(
      other.listTaskPushNotificationConfig({ tenant: "", taskId: task.id, pageSize: 10, pageToken: "" }),
    ).rejects.toThrow(/No task .* of yours/);
    for (const url of ["http://127.0.0.1:8080/hooks", "http://10.0.0.7/hooks", "http://localhost/x"]) {
      await expect(client.createTaskPushNotificationConfig(pushConfig(task.id, url))).rejects.toThrow(
        ADDRESS_REFUSED_TEXT.slice(0, 30),
      );
    }
    await expect(
      client.createTaskPushNotificationConfig(pushConfig(task.id, publicUrl, "hook-1", "")),
    ).rejects.toThrow(/needs a token/);
    expect(await db.a2aPushConfig.count({ where: { runId: task.id } })).toBe(0);
    const runs = await db.run.count();
    const refusedStart = send([text("help")]);
    refusedStart.configuration.taskPushNotificationConfig = pushConfig("", "http://192.168.1.4/x");
    await expect(client.sendMessage(refusedStart)).rejects.toThrow(ADDRESS_REFUSED_TEXT.slice(0, 30));
    expect(await db.run.count()).toBe(runs);
    await client.createTaskPushNotificationConfig(pushConfig(task.id, publicUrl));
    await expect(
      other.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "hook-1" }),
    ).rejects.toThrow(/No task .* of yours/);
    expect(await db.a2aPushConfig.count({ where: { runId: task.id } })).toBe(1);
  });

  it("pushes the task when it parks and when it completes, with the token and a valid signature", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { client } = await clientOf(open.base);
      const parked = asTask(await client.sendMessage(send([text("ask me about my favourite colour")])));
      expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      // Only this test's config is live, so each pass and tick counts only its pushes.
      await db.a2aPushConfig.deleteMany();
      await client.createTaskPushNotificationConfig(pushConfig(parked.id, receiver.url));
      const queue = createA2APushQueue({ db });
      expect(await queue.pass()).toBe(1);
      expect(await queue.pass()).toBe(0);
      expect(await worker().tick()).toBe(1);

      const answer = send([data({ answer: { ok: true, data: { "My favourite colour?": "green" } } })], {
        taskId: parked.id,
      });
      const done = asTask(await client.sendMessage(answer));
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await queue.pass()).toBe(1);
      expect(await worker().tick()).toBe(1);
      expect(await queue.pass()).toBe(0);

      const pushed = receiver.received.map((hit) => JSON.parse(hit.body) as Task);
      expect(pushed.map((task) => task.id)).toEqual([parked.id, parked.id]);
      expect(pushed.map((task) => task.status?.state)).toEqual([
        "TASK_STATE_INPUT_REQUIRED",
        "TASK_STATE_COMPLETED",
      ]);
      for (const hit of receiver.received) {
        expect(hit.headers["x-a2a-notification-token"]).toBe(TOKEN);
        const id = hit.headers["webhook-id"] as string;
        const timestamp = hit.headers["webhook-timestamp"] as string;
        // Computed by hand from the format: the key is the client's token.
        const mac = createHmac("sha256", Buffer.from(TOKEN))
          .update(`${id}.${timestamp}.${hit.body}`)
          .digest("base64");
        expect(hit.headers["webhook-signature"]).toBe(`v1,${mac}`);
      }
    } finally {
      await receiver.close();
    }
  });

  it("reaches every task's configs when there are more than a pass reads, going on where it stopped", async () => {
    await db.a2aPushConfig.deleteMany();
    const { client } = await clientOf(open.base);
    const ids: string[] = [];
    for (let k = 0; k < 3; k += 1) {
      const task = asTask(await client.sendMessage(send([text("refund order 4321 for $250")])));
      await client.createTaskPushNotificationConfig(pushConfig(task.id, "http://127.0.0.1:9/hooks"));
      ids.push(task.id);
    }
    const queue = createA2APushQueue({ db, configsPerPass: 2 });
    expect(await queue.pass()).toBe(2);
    expect(await queue.pass()).toBe(1);
    expect(await queue.pass()).toBe(0);
    const queued = await db.webhookDelivery.findMany({ where: { pushConfig: { runId: { in: ids } } } });
    expect(queued).toHaveLength(3);
  });
});
