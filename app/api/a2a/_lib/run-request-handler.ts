import "server-only";
import type {
  AgentCard,
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from "@a2a-js/sdk";
import {
  ExtendedAgentCardNotConfiguredError,
  RequestMalformedError,
  TaskNotCancelableError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import type { TokenCaller } from "@/lib/auth/api-token-auth";
import { contextThreadId, findRunIdByClientMessageId } from "@/lib/db/a2a-task-keys";
import { createThread, setThreadTitleIfEmpty } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";
import { getRunTaskRowsById, type RunTaskRows } from "@/lib/db/run-tasks";
import type { Engine } from "@/lib/engine/engine-types";
import { isAppError } from "@/lib/errors";
import { readMessageIntent } from "./a2a-answer";
import { guarded } from "./a2a-errors";
import { followTask, loadOwnRows, loadOwnTask, settledTask, type TaskReader } from "./follow-task";
import { listOwnTasks } from "./list-tasks";
import { appPushServices, type PushServices, pushConfigMethods } from "./push-configs";
import { isFinalState, stateName, taskOf } from "./task-view";

// The app's agent behind the SDK's transports (ADR 0084). A task is a run: SendMessage starts one
// in the caller's chat (or answers the request its parked run waits on), and every read of a
// task reads the run. Nothing about a task is kept here, so any instance serves any task, and a
// restart loses nothing.

export interface RunHandlerServices {
  db: DbClient;
  engine: Engine;
  caller: TokenCaller;
  card: AgentCard;
  /** Aborts when the HTTP client goes away: a blocking call or a stream stops following. */
  signal: AbortSignal;
  /** Sealing push tokens and the address rule for push URLs (ADR 0095). */
  push?: PushServices;
}

const TITLE_LENGTH = 60;
const KEY_LENGTH = 200;

/** A client-chosen id the app keeps (ADR 0085): no longer than the database keeps it. */
function checkedKey(field: "contextId" | "messageId", value: string): string {
  if (value.length > KEY_LENGTH) {
    throw new RequestMalformedError(`The message's ${field} is longer than ${KEY_LENGTH} characters.`);
  }
  return value;
}

/** The open request an answer is for: the one the run waits on, or the one it names. */
function requestToAnswer({ run, openRequests: open }: RunTaskRows, named: string | null): string {
  if (open.length === 0) {
    const state = taskOf({ run, openRequests: open, finishedText: null }).status!.state;
    throw new UnsupportedOperationError(
      `Task ${run.id} waits for no answer (it is ${stateName(state)}); nothing was changed.`,
    );
  }
  const ids = open.map((request) => request.id).join(", ");
  if (named) {
    if (!open.some((request) => request.id === named)) {
      throw new RequestMalformedError(
        `Task ${run.id} waits on no request ${JSON.stringify(named)}; it waits on ${ids}.`,
      );
    }
    return named;
  }
  if (open.length > 1) {
    throw new RequestMalformedError(
      `Task ${run.id} waits on ${open.length} requests: name one with "requestId" (${ids}).`,
    );
  }
  return open[0]!.id;
}

export function createRunRequestHandler(services: RunHandlerServices): A2ARequestHandler {
  const { db, engine, caller, card, signal, push = appPushServices() } = services;
  const reader: TaskReader = { db, engine, ownerId: caller.actor.id };
  const { check: checkPushConfig, ...pushMethods } = pushConfigMethods(reader, push);

  /** `act`, keeping the push config a message's configuration carries for its task (ADR 0095). */
  async function actAndWatch(params: SendMessageRequest): Promise<string> {
    const inline = params.configuration?.taskPushNotificationConfig;
    if (inline) checkPushConfig(inline);
    const taskId = await act(params);
    if (inline) await pushMethods.createTaskPushNotificationConfig({ ...inline, taskId });
    return taskId;
  }

  /** Starts a run or answers the task's request; returns the task's id. */
  async function act(params: SendMessageRequest): Promise<string> {
    const intent = readMessageIntent(params.message);
    const message = params.message as Message;
    if (message.taskId) {
      if (intent.kind !== "answer") {
        throw new UnsupportedOperationError(
          'This task takes no more text: answer what it asks with a data part { "answer": { "ok": …, "data": … } }, or start a new task in the same context.',
        );
      }
      const rows = await loadOwnRows(reader, message.taskId);
      const requestId = requestToAnswer(rows, intent.requestId);
      await engine.answerRequest({ requestId, actor: caller.actor, answer: intent.answer });
      return rows.run.id;
    }
    if (intent.kind === "answer") {
      throw new RequestMalformedError("An answer needs the task it answers: set the message's taskId.");
    }
    // The same message sent again (a client that restarted) is the task it started, not a second run.
    const messageId = message.messageId ? checkedKey("messageId", message.messageId) : undefined;
    const contextId = message.contextId ? checkedKey("contextId", message.contextId) : "";
    const key = { db, userId: caller.actor.id };
    const sent = messageId ? await findRunIdByClientMessageId({ ...key, clientMessageId: messageId }) : null;
    if (sent) return sent;
    const threadId = contextId
      ? await contextThreadId({ ...key, contextId })
      : (await createThread({ db, userId: caller.actor.id })).id;
    let runId: string;
    try {
      ({ runId } = await engine.startRun({
        threadId,
        userId: caller.actor.id,
        message: intent.text,
        clientMessageId: messageId,
      }));
    } catch (error) {
      // The same message twice at once: the unique key let one of them start the run.
      const raced = messageId
        ? await findRunIdByClientMessageId({ ...key, clientMessageId: messageId })
        : null;
      if (!raced) throw error;
      return raced;
    }
    await setThreadTitleIfEmpty({ db, threadId, title: intent.text.slice(0, TITLE_LENGTH) });
    return runId;
  }

  async function* stream(
    taskId: string,
    waiting: "stop" | "follow",
  ): AsyncGenerator<StreamResponse, void, undefined> {
    let first = true;
    for await (const task of followTask(reader, taskId, signal, waiting)) {
      if (first) {
        first = false;
        yield { payload: { $case: "task", value: task } };
        continue;
      }
      for (const artifact of task.artifacts) {
        const update = {
          taskId,
          contextId: task.contextId,
          artifact,
          append: false,
          lastChunk: true,
          metadata: undefined,
        };
        yield { payload: { $case: "artifactUpdate", value: update } };
      }
      yield {
        payload: {
          $case: "statusUpdate",
          value: { taskId, contextId: task.contextId, status: task.status, metadata: undefined },
        },
      };
    }
  }

  return guarded({
    getAgentCard: async () => card,
    getAuthenticatedExtendedAgentCard: async () => {
      throw new ExtendedAgentCardNotConfiguredError("This agent has no extended card.");
    },
    async sendMessage(params) {
      const taskId = await actAndWatch(params);
      if (params.configuration?.returnImmediately) return loadOwnTask(reader, taskId);
      return settledTask(reader, taskId, signal);
    },
    async *sendMessageStream(params) {
      yield* stream(await actAndWatch(params), "stop");
    },
    async *resubscribe(params: SubscribeToTaskRequest) {
      yield* stream(params.id, "follow");
    },
    getTask: (params: GetTaskRequest) => loadOwnTask(reader, params.id),
    async cancelTask(params: CancelTaskRequest): Promise<Task> {
      const task = await loadOwnTask(reader, params.id);
      if (isFinalState(task.status!.state)) {
        throw new TaskNotCancelableError(`Task ${task.id} has already ended; nothing was changed.`);
      }
      // The chat's Stop: the engine decides on the run's row, so a Stop racing an answer has one winner.
      try {
        await engine.cancelRun({ runId: task.id, actor: caller.actor });
      } catch (error) {
        if (!isAppError(error) || error.status !== 409) throw error;
        throw new TaskNotCancelableError({ message: error.message, metadata: { code: error.code } });
      }
      const rows = await getRunTaskRowsById({ db, runId: task.id });
      return rows ? taskOf(rows) : task;
    },
    listTasks: (params: ListTasksRequest): Promise<ListTasksResponse> => listOwnTasks(reader, params),
    ...pushMethods,
  });
}
