import "server-only";
import type { EscalationStep } from "@/lib/domain/escalation";
import type { Audience, EventBody, ParkedRequestView, ThreadEvent } from "@/lib/domain/events";
import type { Checkpoint, Request } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { insertEscalationSteps } from "./escalation-steps";
import { appendEvents } from "./events";
import { appendMissingMessages } from "./messages";
import { clearPendingStop } from "./pending-stops";
import { markPropertyOrder, restorePropertyOrder } from "./property-order";
import { type RequestViewRow, toRequestView } from "./requests";
import { checkpointColumns } from "./runs";
import { hotSqlOf, readSqlJson, sql, sqlInt, sqlJson, sqlRows, sqlTable, sqlTime } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";
import { newRowId } from "./sql/row-id";

export class ReusedRequestIdError extends Error {
  constructor(readonly requestId: string) {
    super(
      `A tool asked again with the request id "${requestId}", which this run has already used; ` +
        "the run was stopped so that the earlier answer is not applied to the new request.",
    );
    this.name = "ReusedRequestIdError";
  }
}

export interface Suspension {
  request: Request;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  audience: Audience;
  /** For audience "group": the group's slug and how many of its members must approve. */
  group?: { audienceGroup: string; required: number };
  /** The escalation ladder the request keeps (ADR 0093), written as its steps' rows. */
  escalation?: EscalationStep[];
}

/**
 * Parks a halted run in one transaction: run → pending with its checkpoint, one request row
 * per suspension not already parked, the transcript, the run's events not yet stored (`bodies`)
 * and then the `pending` event listing every open request of the halted turn. Returns null when
 * this process no longer holds the run.
 */
export async function parkRun({
  db,
  runId,
  threadId,
  ownerId,
  leaseOwner,
  checkpoint,
  suspensions,
  withMessages = true,
  storedMessages,
  bodies = [],
}: {
  db: DbClient;
  runId: string;
  threadId: string;
  ownerId: string;
  leaseOwner: string;
  checkpoint: Checkpoint;
  suspensions: Suspension[];
  /** False when the checkpoint's transcript is already stored. */
  withMessages?: boolean;
  /**
   * How many messages of the transcript are stored, as the segment holding the lease knows from
   * its own safe points (saves reading the count back; a wrong one fails on the unique seq).
   */
  storedMessages?: number;
  /** Events of the halting turn still to be stored; they go before `pending`. */
  bodies?: EventBody[];
}): Promise<ThreadEvent[] | null> {
  return hotTransaction(db, async (tx) => {
    const hot = hotSqlOf(tx);
    const nowAt = new Date();
    const now = sqlTime(nowAt);
    const columns = checkpointColumns(checkpoint);
    // Counted as if every suspension opened a request now, which is what a park nearly always
    // does; the few already open are taken off again below, before anything can read the count.
    const held = await hot.execute(sql`
      UPDATE ${sqlTable("Run")} SET "status" = 'pending', "checkpoint" = ${sqlJson(JSON.stringify(columns.checkpoint))},
        "turns" = ${sqlInt(columns.turns)}, "promptTokens" = ${sqlInt(columns.promptTokens)},
        "completionTokens" = ${sqlInt(columns.completionTokens)}, "totalTokens" = ${sqlInt(columns.totalTokens)},
        "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "version" = "version" + 1, "answeredCallsStarted" = false,
        ${clearPendingStop}, "openRequests" = "openRequests" + ${sqlInt(suspensions.length)}, "updatedAt" = ${now}
      WHERE "id" = ${runId} AND "status" = 'running' AND "leaseOwner" = ${leaseOwner}`);
    if (held !== 1) return null;
    if (withMessages)
      await appendMissingMessages({
        tx,
        threadId,
        runId,
        messages: checkpoint.messages,
        known: storedMessages,
      });
    const wireIds = suspensions.map((s) => s.request.id);
    const existing = (
      await hot.query<ParkedRow>(sql`
        SELECT "id", "requestId", "runId", "toolCallId", "toolName", "args", "payload", "audience", "status"
        FROM ${sqlTable("Request")} WHERE "runId" = ${runId} AND "requestId" IN ${sqlRows([wireIds])}`)
    ).map((row) => ({ ...row, args: readSqlJson(row.args), payload: readSqlJson(row.payload) }));
    // A waiting call always has an open row or none: a resolved one means a tool reused a fixed
    // id in a later turn, and its old answer must never be taken for the new question.
    const reused = existing.find((row) => row.status !== "open");
    if (reused) throw new ReusedRequestIdError(reused.requestId);
    const known = new Set(existing.map((row) => row.requestId));
    const created = suspensions
      .filter((s) => !known.has(s.request.id))
      .map((s) => ({ suspension: s, ...freshRow(s, runId) }));
    if (created.length > 0)
      await hot.execute(sql`
        INSERT INTO ${sqlTable("Request")} ("id", "requestId", "runId", "threadId", "ownerId", "toolCallId",
          "toolName", "args", "kind", "prompt", "url", "data", "expiresAt", "payload", "audience", "audienceGroup",
          "required", "status", "origin", "createdAt", "updatedAt")
        VALUES ${sqlRows(
          created.map(({ suspension: s, id, argsText, payloadText }) => [
            id,
            s.request.id,
            runId,
            threadId,
            ownerId,
            s.toolCallId,
            s.toolName,
            sqlJson(argsText),
            s.request.kind,
            s.request.prompt,
            s.request.url ?? null,
            sqlJson(s.request.data ? JSON.stringify(s.request.data) : null),
            sqlTime(s.request.expiresAt ? new Date(s.request.expiresAt) : null),
            sqlJson(payloadText),
            s.audience,
            s.group?.audienceGroup ?? null,
            sqlInt(s.group?.required ?? 1),
            "open",
            "run",
            now,
            now,
          ]),
        )}`);
    for (const { suspension: s, id } of created)
      if (s.escalation?.length)
        await insertEscalationSteps({
          tx,
          requestRowId: id,
          askedAt: nowAt,
          expiresAt: s.request.expiresAt ? new Date(s.request.expiresAt) : null,
          steps: s.escalation,
        });
    const counted = suspensions.length - created.length;
    if (counted > 0)
      await hot.execute(
        sql`UPDATE ${sqlTable("Run")} SET "openRequests" = "openRequests" - ${sqlInt(counted)}, "updatedAt" = ${now} WHERE "id" = ${runId}`,
      );
    const open = [
      ...existing
        .filter((row) => row.status === "open")
        .map((row) => ({ requestId: row.requestId, view: toRequestView(row) })),
      ...created,
    ];
    const order = new Map(wireIds.map((id, index) => [id, index]));
    open.sort((a, b) => order.get(a.requestId)! - order.get(b.requestId)!);
    return appendEvents({
      tx,
      threadId,
      runId,
      bodies: [...bodies, { type: "pending", requests: open.map((row) => row.view) }],
      openedRequestRowIds: new Set(created.map((row) => row.id)),
    });
  });
}

type ParkedRow = RequestViewRow & { requestId: string };

/**
 * A new request row's id, stored texts and view. The view is read back from the texts, as it
 * would be from the row: the same values the pending event's replay will show.
 */
function freshRow(s: Suspension, runId: string) {
  const id = newRowId();
  const argsText = JSON.stringify(s.args);
  const payloadText = JSON.stringify(markPropertyOrder(s.request));
  const view: ParkedRequestView = {
    id,
    request: restorePropertyOrder(JSON.parse(payloadText) as Request),
    runId,
    toolCallId: s.toolCallId,
    toolName: s.toolName,
    args: JSON.parse(argsText) as Record<string, unknown>,
    audience: s.audience,
    status: "open",
  };
  return { id, argsText, payloadText, view, requestId: s.request.id };
}
