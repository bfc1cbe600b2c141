import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import { tokenFor } from "@/app/api/mcp/_lib/testing/mcp-fixture";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { a2aClient, asTask, data, listQuery, send, taskQuery, text } from "./testing/a2a-fixture";
import { type ServedA2A, withA2AServer } from "./testing/with-a2a-server";

// Every refusal of the A2A server: the protocol's error code, a message that says why, and
// nothing changed in the database.

let db: Db;
let engine: Engine;
let served: ServedA2A;
withA2AServer((started) => ({ db, engine, served } = started));

async function person(scopes: Parameters<typeof tokenFor>[2] = ["a2a"]) {
  const user = await newUser(db, "user");
  const { token } = await tokenFor(db, user, scopes);
  return { user, token };
}

/** A raw JSON-RPC POST, as a client that is not the SDK might send it. */
async function post(token: string | null, body: string, version = "1.0") {
  const response = await fetch(served.endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "A2A-Version": version,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body,
  });
  return { status: response.status, body: await response.json() };
}

async function counts() {
  return { runs: await db.run.count(), threads: await db.thread.count(), answers: await db.answer.count() };
}

const sendBody = (textValue: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: { message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: textValue }] } },
  });

describe("the A2A server's refusals", () => {
  it("refuses a call without a token, or with a token lacking the a2a scope", async () => {
    const before = await counts();
    const anonymous = await post(null, sendBody("help"));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/No API token/),
    });
    const { token } = await person(["requests:read", "requests:write"]);
    const unscoped = await post(token, sendBody("help"));
    expect(unscoped.status).toBe(403);
    expect(unscoped.body.error.message).toMatch(/does not have the a2a scope/);
    expect(await counts()).toEqual(before);
  });

  it("answers malformed JSON, a request that is not JSON-RPC and an unknown method with their codes", async () => {
    const { token } = await person();
    const before = await counts();
    const broken = await post(token, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe(-32700);
    const notRpc = await post(token, JSON.stringify({ hello: "there" }));
    // The SDK's transport reports a request that is not JSON-RPC as malformed (A2A v1.0's -32602).
    expect(notRpc.body.error).toMatchObject({ code: -32602, message: "Invalid JSON-RPC Request." });
    const unknown = await post(
      token,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "DropTables", params: {} }),
    );
    expect(unknown.body.error).toMatchObject({ code: -32601, message: expect.stringMatching(/DropTables/) });
    expect(await counts()).toEqual(before);
  });

  it("does not show, list, cancel or answer another person's task, nor continue their chat", async () => {
    const owner = await person();
    const other = await person();
    const ownerClient = await a2aClient(served.base, owner.token);
    const otherClient = await a2aClient(served.base, other.token);
    const parked = asTask(await ownerClient.sendMessage(send([text("ask me about my favourite colour")])));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const before = await counts();

    await expect(otherClient.getTask(taskQuery(parked.id))).rejects.toThrow(/No task .* of yours/);
    await expect(otherClient.cancelTask({ ...taskQuery(parked.id), metadata: {} })).rejects.toThrow(
      /of yours/,
    );
    const answer = send([data({ answer: { ok: true, data: { "My favourite colour?": "red" } } })], {
      taskId: parked.id,
    });
    await expect(otherClient.sendMessage(answer)).rejects.toThrow(/of yours/);
    await expect(otherClient.listTasks(listQuery(parked.contextId))).resolves.toMatchObject({
      tasks: [],
      totalSize: 0,
    });
    expect(await counts()).toEqual(before);
    // A contextId is a name within its sender's own chats: theirs gets a chat of its own.
    const elsewhere = asTask(
      await otherClient.sendMessage(send([text("help")], { contextId: parked.contextId })),
    );
    expect(elsewhere.contextId).toBe(parked.contextId);
    const theirs = await db.run.findUniqueOrThrow({ where: { id: elsewhere.id } });
    expect(theirs).toMatchObject({ userId: other.user.id });
    expect(theirs.threadId).not.toBe(parked.contextId);
    expect(await db.run.count({ where: { threadId: parked.contextId } })).toBe(1);
    expect((await ownerClient.getTask(taskQuery(parked.id))).status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
  });

  it("refuses an answer to a task that is not input-required, and more text to a parked one", async () => {
    const { token } = await person();
    const client = await a2aClient(served.base, token);
    const done = asTask(await client.sendMessage(send([text("help")])));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const before = await counts();
    const answer = send([data({ answer: { ok: true } })], { taskId: done.id });
    await expect(client.sendMessage(answer)).rejects.toThrow(/waits for no answer \(it is completed\)/);
    const parked = asTask(await client.sendMessage(send([text("ask me about the weather")])));
    const middle = await counts();
    expect(middle.runs).toBe(before.runs + 1);
    await expect(client.sendMessage(send([text("never mind")], { taskId: parked.id }))).rejects.toThrow(
      /takes no more text/,
    );
    await expect(
      client.sendMessage(send([data({ answer: { ok: "yes" } })], { taskId: parked.id })),
    ).rejects.toThrow(/must be a boolean/);
    const elsewhere = send([data({ answer: { ok: true }, requestId: "not-this-one" })], {
      taskId: parked.id,
    });
    await expect(client.sendMessage(elsewhere)).rejects.toThrow(/waits on no request "not-this-one"/);
    expect(await counts()).toEqual(middle);
  });

  it("refuses a list page size or token it did not give, and a contextId or messageId too long to keep", async () => {
    const { token } = await person();
    const client = await a2aClient(served.base, token);
    const before = await counts();
    await expect(client.listTasks(listQuery("", { pageSize: 101 }))).rejects.toThrow(/pageSize must be/);
    await expect(client.listTasks(listQuery("", { pageToken: "nope" }))).rejects.toThrow(
      /pageToken is not one/,
    );
    await expect(client.sendMessage(send([text("help")], { contextId: "c".repeat(201) }))).rejects.toThrow(
      /contextId is longer than 200/,
    );
    expect(await counts()).toEqual(before);
  });

  it("answers a push config call for a task that is not the caller's as an unknown task", async () => {
    const { token } = await person();
    const call = {
      jsonrpc: "2.0",
      id: 3,
      method: "GetTaskPushNotificationConfig",
      params: { taskId: "t", id: "c" },
    };
    const refused = await post(token, JSON.stringify(call));
    expect(refused.body.error).toMatchObject({
      code: -32001,
      message: expect.stringMatching(/No task "t" of yours/),
    });
  });

  // Last: the server answers a body past the limit before reading the rest, and the client's
  // pooled connection is not reused after it.
  it("refuses a too-large message, and a body past the app's limit", async () => {
    const { token } = await person();
    const before = await counts();
    const long = await post(token, sendBody("x".repeat(4001)));
    expect(long.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/at most 4000/) });
    const huge = await post(token, sendBody("x".repeat(1024 * 1024 + 1)));
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toMatch(/1 MB/);
    expect(await counts()).toEqual(before);
  });
});
