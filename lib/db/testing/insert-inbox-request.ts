import type { DbClient } from "../db-types";

/** The clock the inbox tests' rows are dated against. */
export const INBOX_TEST_NOW = Date.UTC(2030, 0, 1, 12);

/**
 * One request row, with its own thread and run, written straight into the table: the inbox
 * tests are about the query, not the engine.
 */
export async function insertInboxRequest({
  db,
  row,
}: {
  db: DbClient;
  row: {
    id: string;
    ownerId: string;
    kind: string;
    audience: "owner" | "reviewers";
    prompt: string;
    minutesAgo: number;
    expiresInMinutes?: number;
    status?: string;
  };
}): Promise<void> {
  const thread = await db.thread.create({ data: { userId: row.ownerId } });
  // Parked, as every run with an open request is (an answer is only taken for a parked run).
  const run = await db.run.create({
    data: {
      threadId: thread.id,
      userId: row.ownerId,
      model: "m",
      status: "pending",
      openRequests: (row.status ?? "open") === "open" ? 1 : 0,
    },
  });
  const request = { id: `pnd-${row.id}`, kind: row.kind, prompt: row.prompt };
  await db.request.create({
    data: {
      id: row.id,
      requestId: request.id,
      runId: run.id,
      threadId: thread.id,
      ownerId: row.ownerId,
      toolCallId: "c1",
      toolName: "tool",
      args: {},
      kind: row.kind,
      prompt: row.prompt,
      payload: request,
      audience: row.audience,
      status: row.status ?? "open",
      createdAt: new Date(INBOX_TEST_NOW - row.minutesAgo * 60_000),
      ...(row.expiresInMinutes === undefined
        ? {}
        : { expiresAt: new Date(INBOX_TEST_NOW + row.expiresInMinutes * 60_000) }),
    },
  });
}
