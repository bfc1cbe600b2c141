import { TaskState } from "@a2a-js/sdk";
import {
  isLegacyAgentCard,
  LegacyJsonRpcTransport,
  parseLegacyAgentCard,
} from "@a2a-js/sdk/compat/v0_3/client";
import { describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { asTask, data, parkedRequestOf, send, taskQuery, text, textOfTask } from "./testing/a2a-fixture";
import { type ServedA2A, withA2AServer } from "./testing/with-a2a-server";

// The app's agent over A2A, with the official SDK's client over real HTTP, on both databases.

describe.each(["sqlite", "postgres"] as const)("the A2A server on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  let served: ServedA2A;
  const { clientOf } = withA2AServer((started) => ({ db, engine, served } = started), provider);

  it("serves a card with the app's tools as skills, streaming, and bearer tokens with the a2a scope", async () => {
    const response = await fetch(`${served.base}/.well-known/agent-card.json`, {
      headers: { "A2A-Version": "1.0" },
    });
    const card = await response.json();
    expect(card).toMatchObject({
      name: "toolnexus",
      version: expect.any(String),
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } } },
      securityRequirements: [{ schemes: { bearer: { list: ["a2a"] } } }],
    });
    const skills = card.skills.map((skill: { id: string }) => skill.id);
    expect(skills).toEqual(expect.arrayContaining(["refund", "deploy", "book_flight", "question"]));
    expect(
      card.supportedInterfaces.map((i: { protocolVersion: string }) => i.protocolVersion).sort(),
    ).toEqual(["0.3", "1.0"]);
  });

  it("serves v0.3 peers: the card in v0.3's shape and the v0.3 JSON-RPC methods", async () => {
    const raw = await (await fetch(`${served.base}/.well-known/agent-card.json`)).json();
    expect(isLegacyAgentCard(raw)).toBe(true);
    expect(raw).toMatchObject({
      url: served.endpoint,
      preferredTransport: "JSONRPC",
      security: [{ bearer: ["a2a"] }],
    });
    expect(parseLegacyAgentCard(raw).skills.map((skill) => skill.id)).toContain("refund");

    const { token } = await clientOf();
    const legacy = new LegacyJsonRpcTransport({ endpoint: raw.url });
    const options = { serviceParameters: { Authorization: `Bearer ${token}` } };
    const parked = asTask(
      await legacy.sendMessage(send([text("ask me about my favourite colour")]), options),
    );
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const answer = send([data({ answer: { ok: true, data: { "My favourite colour?": "red" } } })], {
      taskId: parked.id,
    });
    expect(asTask(await legacy.sendMessage(answer, options)).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const read = await legacy.getTask(taskQuery(parked.id), options);
    expect(textOfTask(read)).toContain("→ red");
  });

  it("runs a task to completed with the answer as an artifact, and keeps one chat per contextId", async () => {
    const { person, client } = await clientOf();
    const first = asTask(await client.sendMessage(send([text("what can you do?")])));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOfTask(first)).toMatch(/\S/);
    const run = await db.run.findUniqueOrThrow({ where: { id: first.id } });
    expect(run).toMatchObject({ userId: person.id, threadId: first.contextId, status: "done" });

    const again = await client.getTask(taskQuery(first.id));
    expect(again).toMatchObject({
      id: first.id,
      contextId: first.contextId,
      status: { state: TaskState.TASK_STATE_COMPLETED },
    });

    const second = asTask(await client.sendMessage(send([text("help")], { contextId: first.contextId })));
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(await db.run.count({ where: { threadId: first.contextId } })).toBe(2);
  });

  it("parks as input-required with the Request, refuses an answer off its schema, completes once answered", async () => {
    const { client } = await clientOf();
    const parked = asTask(await client.sendMessage(send([text("book a flight from BER to LIS")])));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const request = parkedRequestOf(parked);
    expect(request).toMatchObject({
      kind: "input",
      prompt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect((request.data as { schema?: { properties?: object } }).schema?.properties).toHaveProperty("date");
    expect(parked.status?.message?.parts[0]?.content).toEqual({ $case: "text", value: request.prompt });
    const ids = { taskId: parked.id, contextId: parked.contextId };

    const wrong = send([data({ answer: { ok: true, data: { date: "soon", passengers: "many" } } })], ids);
    await expect(client.sendMessage(wrong)).rejects.toThrow(/passengers|date/);
    expect((await client.getTask(taskQuery(parked.id))).status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );

    const answer = { from: "BER", to: "LIS", date: "2030-02-01", passengers: 1, email: "bob@example.com" };
    const done = asTask(await client.sendMessage(send([data({ answer: { ok: true, data: answer } })], ids)));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOfTask(done)).toMatch(/^Booked BER → LIS on 2030-02-01 for 1 passenger/);
  });

  it("refuses an answer the inbox would refuse, says why, and leaves the task input-required", async () => {
    const { client } = await clientOf();
    const parked = asTask(await client.sendMessage(send([text("refund order 4321 for $250")])));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // The refund's approval is the reviewers': its asker never approves it (four eyes).
    const answer = send([data({ answer: { ok: true } })], { taskId: parked.id, contextId: parked.contextId });
    await expect(client.sendMessage(answer)).rejects.toThrow(/not allowed to answer/);
    expect(await db.answer.count({ where: { request: { runId: parked.id } } })).toBe(0);
    expect((await client.getTask(taskQuery(parked.id))).status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
  });

  it("streams a task answered in the inbox to completed", async () => {
    const { client } = await clientOf();
    const reviewer = await newUser(db, "reviewer");
    const parked = asTask(await client.sendMessage(send([text("refund order 77 for $900")])));
    const requestId = parkedRequestOf(parked).id as string;
    const states: TaskState[] = [];
    const following = (async () => {
      for await (const event of client.resubscribeTask({ id: parked.id, tenant: "" })) {
        const { payload } = event;
        if (payload?.$case === "task" || payload?.$case === "statusUpdate")
          states.push(payload.value.status!.state);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await engine.answerRequest({
      requestId,
      actor: reviewer,
      answer: (request) => ({ ok: true, data: { arguments: request.args } }),
    });
    await following;
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
