import "server-only";
import { type ListTasksRequest, type ListTasksResponse, TaskState } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { listRunTaskIds } from "@/lib/db/a2a-task-keys";
import { getRunTaskRowsById } from "@/lib/db/run-tasks";
import type { RunState } from "@/lib/domain/events";
import type { TaskReader } from "./follow-task";
import { taskOf } from "./task-view";

// ListTasks (ADR 0085): the caller's own tasks, newest first, so a client that restarted finds
// the task it sent in a context of its choosing instead of sending it again.

const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;

/** The run states a task state can come from; both waiting states come from a parked run. */
const RUN_STATES: Partial<Record<TaskState, RunState[]>> = {
  [TaskState.TASK_STATE_WORKING]: ["running"],
  [TaskState.TASK_STATE_INPUT_REQUIRED]: ["pending"],
  [TaskState.TASK_STATE_AUTH_REQUIRED]: ["pending"],
  [TaskState.TASK_STATE_COMPLETED]: ["done"],
  [TaskState.TASK_STATE_FAILED]: ["failed", "incomplete"],
  [TaskState.TASK_STATE_CANCELED]: ["cancelled"],
};

export async function listOwnTasks(reader: TaskReader, params: ListTasksRequest): Promise<ListTasksResponse> {
  const pageSize = params.pageSize ?? DEFAULT_PAGE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE) {
    throw new RequestMalformedError(`pageSize must be a whole number from 1 to ${MAX_PAGE}.`);
  }
  const wanted = params.status ?? TaskState.TASK_STATE_UNSPECIFIED;
  const statuses = wanted === TaskState.TASK_STATE_UNSPECIFIED ? null : (RUN_STATES[wanted] ?? []);
  const updatedFrom = params.statusTimestampAfter ? new Date(params.statusTimestampAfter) : null;
  if (updatedFrom && Number.isNaN(updatedFrom.getTime())) {
    throw new RequestMalformedError("statusTimestampAfter must be an ISO 8601 time.");
  }
  const page = await listRunTaskIds({
    db: reader.db,
    userId: reader.ownerId,
    contextId: params.contextId ?? "",
    statuses,
    updatedFrom,
    pageSize,
    pageToken: params.pageToken ?? "",
  });
  if (page === "bad_page_token") {
    throw new RequestMalformedError("pageToken is not one this listing gave: start again without it.");
  }
  const tasks = [];
  for (const runId of page.runIds) {
    const rows = await getRunTaskRowsById({ db: reader.db, runId });
    if (!rows) continue;
    const task = taskOf(rows);
    // input-required and auth-required are both a parked run: told apart by its requests.
    if (statuses && task.status!.state !== wanted) continue;
    tasks.push(params.includeArtifacts ? task : { ...task, artifacts: [] });
  }
  return { tasks, nextPageToken: page.nextPageToken, pageSize, totalSize: page.total };
}
