import "server-only";
import type { Task } from "@a2a-js/sdk";
import { TaskNotFoundError } from "@a2a-js/sdk/errors";
import type { DbClient } from "@/lib/db/db-types";
import { getFirstEventSeqByRun } from "@/lib/db/events";
import { getRunTaskRowsById, type RunTaskRows } from "@/lib/db/run-tasks";
import type { Engine } from "@/lib/engine/engine-types";
import { isFinalState, isStreamEnd, taskOf } from "./task-view";

// Following a task is following its chat's events (the app's one event log, heard from every
// instance through the bus): each event that can change the run's state reads the run again.

const STATE_EVENTS = new Set(["run_status", "pending", "request_resolved", "run_finished"]);

export interface TaskReader {
  db: DbClient;
  engine: Engine;
  ownerId: string;
}

/** The task's rows, if its run is the caller's; another person's task is as missing as an unknown one. */
export async function loadOwnRows({ db, ownerId }: TaskReader, taskId: string): Promise<RunTaskRows> {
  const rows = taskId ? await getRunTaskRowsById({ db, runId: taskId }) : null;
  if (!rows || rows.run.userId !== ownerId) {
    throw new TaskNotFoundError(
      `No task ${JSON.stringify(taskId)} of yours: tasks are the runs you started.`,
    );
  }
  return rows;
}

export async function loadOwnTask(reader: TaskReader, taskId: string): Promise<Task> {
  return taskOf(await loadOwnRows(reader, taskId));
}

function sameView(a: Task, b: Task): boolean {
  return a.status?.state === b.status?.state && a.status?.message?.messageId === b.status?.message?.messageId;
}

/**
 * The task as it is now, then each time its state changes, until it ends or waits for
 * someone (or `signal` aborts). A subscriber to a task that already waits (`waiting: "follow"`)
 * follows it until it moves on to its next end or wait.
 */
export async function* followTask(
  reader: TaskReader,
  taskId: string,
  signal: AbortSignal,
  waiting: "stop" | "follow" = "stop",
): AsyncGenerator<Task, void, undefined> {
  const rows = await loadOwnRows(reader, taskId);
  let last = taskOf(rows);
  yield last;
  const state = last.status!.state;
  if (isFinalState(state) || (waiting === "stop" && isStreamEnd(state))) return;
  const first = await getFirstEventSeqByRun({ db: reader.db, runId: taskId });
  const events = reader.engine.subscribe({
    threadId: rows.run.threadId,
    afterSeq: Math.max(0, (first ?? 1) - 1),
    signal,
  });
  for await (const event of events) {
    if (event.runId !== taskId || !STATE_EVENTS.has(event.type)) continue;
    const now = await loadOwnTask(reader, taskId);
    if (sameView(now, last)) continue;
    last = now;
    yield now;
    if (isStreamEnd(now.status!.state)) return;
  }
}

/** The task once it ends or waits for someone, for a blocking SendMessage. */
export async function settledTask(reader: TaskReader, taskId: string, signal: AbortSignal): Promise<Task> {
  let last: Task | undefined;
  for await (const task of followTask(reader, taskId, signal)) last = task;
  return last ?? loadOwnTask(reader, taskId);
}
