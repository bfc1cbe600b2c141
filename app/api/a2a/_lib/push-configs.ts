import "server-only";
import { randomUUID } from "node:crypto";
import type {
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import { RequestMalformedError, TaskNotFoundError } from "@a2a-js/sdk/errors";
import {
  deleteA2aPushConfig,
  getA2aPushConfig,
  listA2aPushConfigs,
  PUSH_CONFIGS_PER_TASK,
  type StoredPushConfig,
  saveA2aPushConfig,
} from "@/lib/db/a2a-push-configs";
import { outboundPrivateAllowed, outboundUrlProblem } from "@/lib/http/outbound-address";
import { sealPushToken } from "@/lib/notify/webhook-secret";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { loadOwnRows, type TaskReader } from "./follow-task";

// A task's push-notification configs (ADR 0095), for the caller's own tasks only. The URL passes
// the app's one outbound-address policy, as a webhook endpoint's does; the token is kept sealed,
// sent back with every push, and never shown again (reads answer it empty).

export interface PushServices {
  /** Seals a config's token, bound to the config's row. */
  sealToken: (rowId: string, token: string) => string;
  /** TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE (ADR 0056): whether receivers on private addresses are allowed. */
  allowPrivate: boolean;
}

export function appPushServices(): PushServices {
  return {
    sealToken: (rowId, token) => sealPushToken(rowId, token, getOAuthRuntime().keys),
    allowPrivate: outboundPrivateAllowed(),
  };
}

const ID_LENGTH = 200;
const TOKEN_LENGTH = 1000;
const URL_LENGTH = 2000;

function viewOf(config: StoredPushConfig): TaskPushNotificationConfig {
  return {
    tenant: "",
    id: config.configId,
    taskId: config.runId,
    url: config.url,
    token: "",
    authentication: undefined,
  };
}

/** The checked config a client sent, or the error that says which field is wrong; nothing is stored before. */
function checkedConfig(params: TaskPushNotificationConfig, allowPrivate: boolean) {
  const configId = params.id || randomUUID();
  if (configId.length > ID_LENGTH) {
    throw new RequestMalformedError(`The push config's id is longer than ${ID_LENGTH} characters.`);
  }
  const url = (params.url ?? "").trim();
  const problem = url.length > URL_LENGTH ? `The URL is longer than ${URL_LENGTH} characters.` : null;
  const refused = problem ?? outboundUrlProblem(url, allowPrivate);
  if (refused) throw new RequestMalformedError(`The push config's url is refused: ${refused}`);
  const token = params.token ?? "";
  if (!token || token.length > TOKEN_LENGTH) {
    throw new RequestMalformedError(
      `The push config needs a token of 1 to ${TOKEN_LENGTH} characters: it is sent back with every push and keys its signature.`,
    );
  }
  return { configId, url, token };
}

export function pushConfigMethods(reader: TaskReader, push: PushServices) {
  const { db } = reader;
  /** Refuses a config before anything is written (one sent with SendMessage is checked before the run starts). */
  const check = (params: TaskPushNotificationConfig) => {
    checkedConfig(params, push.allowPrivate);
  };
  const notFound = (taskId: string, id: string) =>
    new TaskNotFoundError(`Task ${taskId} has no push config ${JSON.stringify(id)}.`);
  return {
    check,
    async createTaskPushNotificationConfig(
      params: TaskPushNotificationConfig,
    ): Promise<TaskPushNotificationConfig> {
      const { run } = await loadOwnRows(reader, params.taskId);
      const { configId, url, token } = checkedConfig(params, push.allowPrivate);
      const saved = await saveA2aPushConfig({
        db,
        runId: run.id,
        configId,
        url,
        seal: (rowId) => push.sealToken(rowId, token),
      });
      if (saved.status === "full") {
        throw new RequestMalformedError(
          `Task ${run.id} has ${PUSH_CONFIGS_PER_TASK} push configs already: delete one first. Nothing was changed.`,
        );
      }
      return viewOf(saved.config);
    },
    async getTaskPushNotificationConfig(
      params: GetTaskPushNotificationConfigRequest,
    ): Promise<TaskPushNotificationConfig> {
      const { run } = await loadOwnRows(reader, params.taskId);
      const config = await getA2aPushConfig({ db, runId: run.id, configId: params.id });
      if (!config) throw notFound(run.id, params.id);
      return viewOf(config);
    },
    async listTaskPushNotificationConfigs(
      params: ListTaskPushNotificationConfigsRequest,
    ): Promise<ListTaskPushNotificationConfigsResponse> {
      const { run } = await loadOwnRows(reader, params.taskId);
      // A task has at most PUSH_CONFIGS_PER_TASK: one page holds them all.
      const configs = await listA2aPushConfigs({ db, runId: run.id });
      return { configs: configs.map(viewOf), nextPageToken: "" };
    },
    async deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest): Promise<void> {
      const { run } = await loadOwnRows(reader, params.taskId);
      if (!(await deleteA2aPushConfig({ db, runId: run.id, configId: params.id }))) {
        throw notFound(run.id, params.id);
      }
    },
  };
}
