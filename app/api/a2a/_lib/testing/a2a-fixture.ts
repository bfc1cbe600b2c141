import { randomUUID } from "node:crypto";
import {
  A2A_VERSION_HEADER,
  type Message,
  Role,
  type SendMessageConfiguration,
  type Task,
  TaskState,
} from "@a2a-js/sdk";
import { type Client, ClientFactory } from "@a2a-js/sdk/client";
import { serveOverHttp } from "@/app/api/mcp/_lib/testing/serve-over-http";
import type { DbClient } from "@/lib/db/db-types";
import type { Engine } from "@/lib/engine/engine-types";
import { agentCardJson, buildAgentCard } from "../agent-card";
import type { PushServices } from "../push-configs";
import { serveA2A } from "../serve-a2a";

// The A2A server as the app serves it (the card and /api/a2a) on a real HTTP port, and the
// official SDK's client talking to it.

export async function serveA2AOverHttp(services: { db: DbClient; engine: Engine; push?: PushServices }) {
  let base = "";
  const server = await serveOverHttp(async (request) => {
    const card = await buildAgentCard({ db: services.db, baseUrl: base });
    if (new URL(request.url).pathname === "/.well-known/agent-card.json") {
      return Response.json(agentCardJson(card, request.headers.get(A2A_VERSION_HEADER)));
    }
    return serveA2A(request, { ...services, card });
  });
  base = new URL(server.url).origin;
  return { base, endpoint: `${base}/api/a2a`, close: server.close };
}

/** The SDK's client for `base`, sending `token` on every call. */
export async function a2aClient(base: string, token: string): Promise<Client> {
  const factory = new ClientFactory();
  const client = await factory.createFromUrl(base);
  return withToken(client, token);
}

function withToken(client: Client, token: string): Client {
  const options = { serviceParameters: { Authorization: `Bearer ${token}` } };
  return new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || name === "getAgentCard") return value;
      return (params: unknown, extra?: object) => value.call(target, params, { ...options, ...extra });
    },
  });
}

export function userMessage(
  parts: Message["parts"],
  ids: { taskId?: string; contextId?: string } = {},
): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A SendMessage request, as the SDK's client takes it. */
export function send(
  parts: Message["parts"],
  ids: { taskId?: string; contextId?: string } = {},
  returnImmediately = false,
) {
  const configuration: SendMessageConfiguration = {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately,
    historyLength: undefined,
  };
  return { tenant: "", message: userMessage(parts, ids), configuration, metadata: undefined };
}

export function taskQuery(id: string) {
  return { id, tenant: "" };
}

/** A ListTasks request for one context (or all, with ""), as the SDK's client takes it. */
export function listQuery(contextId: string, page: { pageSize?: number; pageToken?: string } = {}) {
  return {
    tenant: "",
    contextId,
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageSize: page.pageSize,
    pageToken: page.pageToken ?? "",
    statusTimestampAfter: undefined,
    includeArtifacts: true,
  };
}

export function text(value: string): Message["parts"][number] {
  return { content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

export function data(value: Record<string, unknown>): Message["parts"][number] {
  return {
    content: { $case: "data", value },
    metadata: undefined,
    filename: "",
    mediaType: "application/json",
  };
}

export function asTask(result: unknown): Task {
  if (!result || typeof result !== "object" || !("status" in result)) throw new Error("not a task");
  return result as Task;
}

/** The data part `{ request: … }` of a parked task's status message. */
export function parkedRequestOf(task: Task): Record<string, unknown> {
  for (const part of task.status?.message?.parts ?? []) {
    if (part.content?.$case === "data" && part.content.value.request) return part.content.value.request;
  }
  throw new Error("the task carries no request");
}

export function textOfTask(task: Task): string {
  return task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join("");
}
