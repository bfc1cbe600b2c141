import "server-only";
import type { RunState } from "@/lib/domain/events";
import type { DbClient } from "./db-types";
import { type StoredRequest, toStoredRequest } from "./requests";

// What an A2A task shows of the run behind it (ADR 0084): the run's state, the requests it waits
// on, and its last answer. A task is a view of these rows, never a copy of them.

export interface RunTaskRows {
  run: {
    id: string;
    threadId: string;
    /** The task's contextId: the one its A2A client chose for the chat, else the chat's id. */
    contextId: string;
    userId: string;
    status: RunState;
    error: string | null;
  };
  /** The run's open requests, oldest first: what a parked run waits on. */
  openRequests: StoredRequest[];
  /** The assistant's last answer, once the run has finished. */
  finishedText: string | null;
}

export async function getRunTaskRowsById({
  db,
  runId,
}: {
  db: DbClient;
  runId: string;
}): Promise<RunTaskRows | null> {
  const found = await db.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      threadId: true,
      userId: true,
      status: true,
      error: true,
      thread: { select: { contextKey: true } },
    },
  });
  if (!found) return null;
  const { thread, ...run } = found;
  const status = run.status as RunState;
  const openRequests =
    status === "pending"
      ? (
          await db.request.findMany({
            where: { runId, status: "open" },
            include: { answer: true },
            orderBy: { createdAt: "asc" },
          })
        ).map(toStoredRequest)
      : [];
  const finished =
    status === "running" || status === "pending"
      ? null
      : await db.event.findFirst({
          where: { runId, type: "run_finished" },
          orderBy: { seq: "desc" },
          select: { payload: true },
        });
  const text = (finished?.payload as { text?: unknown } | undefined)?.text;
  return {
    run: { ...run, contextId: thread.contextKey ?? run.threadId, status },
    openRequests,
    finishedText: typeof text === "string" ? text : null,
  };
}
