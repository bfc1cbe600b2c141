import { type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type RequestOptions,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import { A2AError } from "@a2a-js/sdk/errors";
import { type BackoffPolicy, backoffDelayMs } from "../backoff";
import type { Answer, Request } from "../types";
import { messageAnswer, taskMessage } from "./a2a-task";
import type { A2AWaitForOptions } from "./a2a-wait-for";

// The calls a2a-wait-for.ts makes on the other agent, each through the official SDK's client.

export function connect(
  options: Pick<A2AWaitForOptions, "agentCard" | "agentCardUrl" | "fetch">,
): Promise<Client> {
  // v0.3 peers keep working: the card resolver and both transports translate for them.
  const legacyCompat = { enabled: true };
  const fetchImpl = options.fetch;
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
        new RestTransportFactory({ fetchImpl, legacyCompat }),
      ],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
    }),
  );
  if (options.agentCard) return factory.createFromAgentCard(options.agentCard);
  const url = options.agentCardUrl!;
  const made = new URL(url).pathname.endsWith(".json")
    ? factory.createFromUrl(url, url)
    : factory.createFromUrl(url);
  return made.catch((error: unknown) => {
    const said = error instanceof Error ? error.message : String(error);
    throw new Error(`its agent card at ${url} could not be read (${said})`, { cause: error });
  });
}

export type Call = () => RequestOptions;

/** The task sent for this key before (by this process or one before a restart), if the peer lists it. */
export async function findTask(
  peer: Client,
  key: string,
  call: Call,
  backoff: BackoffPolicy,
  signal: AbortSignal,
): Promise<Task | undefined> {
  const list = () =>
    peer.listTasks(
      {
        tenant: "",
        contextId: key,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: "",
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      },
      call(),
    );
  try {
    return (await persist(list, backoff, signal)).tasks[0];
  } catch (error) {
    // A peer without ListTasks (A2A 0.3) refuses it: there a restarted process asks again.
    if (signal.aborted || !permanent(error)) throw error;
    return undefined;
  }
}

function settles(state: TaskState | undefined): boolean {
  return state !== undefined && !FLOWING.has(state);
}

const FLOWING = new Set([
  TaskState.TASK_STATE_UNSPECIFIED,
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);

/** The state a stream event reports, if it reports one. */
function stateIn(event: StreamResponse): TaskState | undefined {
  const payload = event.payload;
  if (payload?.$case === "task") return payload.value.status?.state;
  if (payload?.$case === "statusUpdate") return payload.value.status?.state;
  return undefined;
}

/**
 * Sends the request; a streaming peer is followed until the task first settles or asks. Only the
 * task's id is kept: the task itself is then read as the peer keeps it, artifacts included.
 */
export async function startTask(
  peer: Client,
  request: Request,
  key: string,
  streams: boolean,
  call: Call,
  made: (taskId: string) => void,
): Promise<{ taskId: string } | { answer: Answer }> {
  if (!streams) {
    const sent = await peer.sendMessage(taskMessage(request, key, true), call());
    return "role" in sent ? { answer: messageAnswer(request, sent) } : { taskId: sent.id };
  }
  let taskId: string | undefined;
  for await (const event of peer.sendMessageStream(taskMessage(request, key, false), call())) {
    const payload = event.payload;
    if (payload?.$case === "message") return { answer: messageAnswer(request, payload.value) };
    if (payload?.$case === "task") taskId = payload.value.id;
    if (payload?.$case === "statusUpdate") taskId = payload.value.taskId;
    // Known from the first event on, so a deadline during the stream still cancels the task.
    if (taskId) made(taskId);
    if (taskId && settles(stateIn(event))) break;
  }
  if (!taskId) throw new Error("the stream ended before the peer made a task");
  return { taskId };
}

/** Follows a working task's stream until its state settles; false when the stream ended first. */
export async function untilSettled(peer: Client, task: Task, call: Call): Promise<boolean> {
  for await (const event of peer.resubscribeTask({ tenant: "", id: task.id }, call())) {
    if (settles(stateIn(event))) return true;
  }
  return false;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    function stop() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** A refusal that asking again cannot change: the peer's protocol error, or a 4xx other than 408/429. */
function permanent(error: unknown): boolean {
  if (error instanceof A2AError) return true;
  const status = /Status: (\d{3})/.exec(error instanceof Error ? error.message : "")?.[1];
  return /^4\d\d$/.test(status ?? "") && status !== "408" && status !== "429";
}

/** Calls again with backoff while the peer or the network is briefly away; a refusal is thrown. */
async function persist<T>(
  attempt: () => Promise<T>,
  backoff: BackoffPolicy,
  signal: AbortSignal,
): Promise<T> {
  for (let failures = 0; ; failures += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (signal.aborted || permanent(error)) throw error;
      await sleep(backoffDelayMs(backoff, failures), signal);
    }
  }
}

/** Reads the task as the peer keeps it, artifacts included. */
export function readTask(
  peer: Client,
  id: string,
  call: Call,
  backoff: BackoffPolicy,
  signal: AbortSignal,
): Promise<Task> {
  return persist(() => peer.getTask({ tenant: "", id }, call()), backoff, signal);
}
