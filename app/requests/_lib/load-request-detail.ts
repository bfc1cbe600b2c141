import type { SessionUser } from "@/lib/auth/session-user";
import type { DbClient } from "@/lib/db/db-types";
import { listEscalationStepsByRequest } from "@/lib/db/escalation-steps";
import { listRecentMessagesByRun } from "@/lib/db/messages";
import { listRequestOriginsByIds } from "@/lib/db/request-origins";
import { listTakesByRequestIds } from "@/lib/db/request-takes";
import { hasVoted } from "@/lib/db/request-votes";
import { getUserById } from "@/lib/db/users";
import { listVoteTallies } from "@/lib/db/vote-tallies";
import { answeredByWords } from "@/lib/domain/answer-words";
import { type ArgumentChange, listArgumentChanges } from "@/lib/domain/approval-edit";
import type { EscalationStepView } from "@/lib/domain/escalation";
import type { TakeView } from "@/lib/domain/inbox";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import { describeOrigin } from "@/lib/domain/request-origin";
import type { ConversationLine, RequestView } from "@/lib/domain/request-view";
import type { VoteTally } from "@/lib/domain/vote-tally";
import type { Engine } from "@/lib/engine/engine-types";
import { AppError, isAppError } from "@/lib/errors";
import type { Message } from "@/lib/toolnexus/types";
import { toRequestView } from "./to-request-view";

/** Everything one request's detail shows, on its own page and beside the inbox list. */
export interface RequestDetail {
  id: string;
  view: RequestView;
  canAnswer: boolean;
  threadId: string;
  /** Made through the HTTP API: no run, no tool, no chat behind it (ADR 0034). */
  fromApi: boolean;
  /** The viewer's own request. */
  mine: boolean;
  /** Who asked: "your chat", "Alice's chat", "Alice via API token 'ci'" (plain text). */
  askedBy: string;
  /** The chat's last few lines up to the request, read-only. */
  conversation: ConversationLine[];
  /** What the reviewer changed in the arguments when approving; empty if nothing. */
  changes: ArgumentChange[];
  /** Reviewers' open requests can be taken ("I'm on it") by those who may answer them. */
  take: { allowed: false } | { allowed: true; current: TakeView | null };
  /** A group's votes so far; null for every other audience. */
  tally: VoteTally | null;
  /** Its escalation ladder, fired steps with when (ADR 0093); empty without one. */
  escalation: EscalationStepView[];
}

// Enough to see why the agent asked, few enough to read at a glance beside the list.
const CONVERSATION_LINES = 6;
// Tool results and calls take rows too; read more than shown so the lines left are enough.
const CONVERSATION_ROWS = 24;

function displayName(user: { name: string | null; email: string | null } | null): string | undefined {
  return user ? (user.name ?? user.email ?? undefined) : undefined;
}

function answeredBy(actor: string | undefined, forWhom: string | undefined): string | undefined {
  return actor ? answeredByWords(actor, forWhom) : undefined;
}

function toLines(messages: Message[]): ConversationLine[] {
  const lines: ConversationLine[] = [];
  for (const message of messages) {
    if ((message.role === "user" || message.role === "assistant") && message.content.trim()) {
      lines.push({ role: message.role, text: message.content });
    }
  }
  return lines.slice(-CONVERSATION_LINES);
}

/**
 * Reads one request for `actor` through the engine, which lets only those who may answer it and
 * its chat's owner see it. Anyone else gets `not_found:request`, exactly as for an id that
 * does not exist (an id must not tell a stranger that it exists); so does a malformed id.
 */
export async function loadRequestDetail(
  { actor, requestId }: { actor: SessionUser; requestId: string },
  { db, engine }: { db: DbClient; engine: Engine },
): Promise<RequestDetail> {
  const stored = await engine.readRequest({ requestId, actor }).catch((error: unknown) => {
    if (isAppError(error, "bad_request:input")) throw new AppError("not_found:request");
    throw error;
  });
  // A member who has voted has nothing left to send: each votes once, and so does one covering
  // for a member away, whose vote is the member's (ADR 0098).
  const voterId = stored.coveringFor?.userId ?? actor.id;
  const canAnswer =
    stored.mayAnswer &&
    !(
      stored.audience === "group" &&
      (await hasVoted({ db, requestRowId: stored.id, voterId, castById: actor.id }))
    );
  const takeable = canAnswer && stored.status === "open" && stored.audience === "reviewers";
  const [answerer, answeredFor, origins, messages, takes, tallies, ladders] = await Promise.all([
    stored.answer?.actorId ? getUserById({ db, userId: stored.answer.actorId }) : null,
    stored.answer?.forUserId ? getUserById({ db, userId: stored.answer.forUserId }) : null,
    listRequestOriginsByIds({ db, ids: [stored.id] }),
    stored.runId === null
      ? []
      : listRecentMessagesByRun({
          db,
          threadId: stored.threadId,
          runId: stored.runId,
          limit: CONVERSATION_ROWS,
        }),
    takeable ? listTakesByRequestIds({ db, ids: [stored.id], now: new Date() }) : null,
    listVoteTallies({ db, requests: [stored] }),
    listEscalationStepsByRequest({ db, requestRowIds: [stored.id] }),
  ]);
  const held = takes?.get(stored.id);
  const approved =
    stored.answer?.ok && requestKindSpec(stored.request.kind).form === "approval"
      ? stored.answer.data
      : undefined;
  return {
    id: stored.id,
    view: toRequestView(stored, answeredBy(displayName(answerer), displayName(answeredFor))),
    canAnswer,
    threadId: stored.threadId,
    fromApi: stored.runId === null,
    mine: stored.ownerId === actor.id,
    askedBy: `${describeOrigin(
      origins.get(stored.id) ?? { via: "chat", ownerName: "someone" },
      stored.ownerId === actor.id,
    )}${stored.coveringFor && stored.status === "open" ? ` · you answer for ${stored.coveringFor.email}, who is away` : ""}`,
    conversation: toLines(messages),
    changes: listArgumentChanges(stored.request.data, stored.args, approved),
    tally: tallies.get(stored.id) ?? null,
    escalation: ladders.get(stored.id) ?? [],
    take: takeable
      ? {
          allowed: true,
          current: held
            ? { takerName: held.takerName, until: held.until, mine: held.takerId === actor.id }
            : null,
        }
      : { allowed: false },
  };
}
