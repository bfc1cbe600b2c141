import {
  type CreatedApiRequest,
  createApiRequest,
  findApiRequestByKey,
  getApiRequestByOwner,
} from "@/lib/db/api-requests";
import { getApproverGroupBySlug } from "@/lib/db/approver-groups";
import type { StoredRequest } from "@/lib/db/requests";
import { resolveRequest } from "@/lib/db/resolve-request";
import type { Audience } from "@/lib/domain/events";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import { REQUEST_EXPIRY_HORIZON_DAYS, REQUEST_EXPIRY_HORIZON_MS } from "@/lib/domain/request-limits";
import { AppError } from "@/lib/errors";
import type { AnswerDeps } from "./answer-request";
import type { NewStandaloneRequest } from "./engine-types";
import type { EventNotice } from "./event-bus";
import { publishAll } from "./event-writer";
import { expireRequest, isDue } from "./expire-request";
import { checkAnswerSchema } from "./validate-answer";

// Requests made through the HTTP API (ADR 0034): no run waits on them, so nothing resumes when
// they are answered; the client that made them reads the answer back, or waits for it here.
// They are answered through `answerRequest` like every other request.

const SIGN_INS_ARE_TOOLS =
  "An authorization request is a sign-in the app's own tools start; ask for an approval, input or a question instead.";

/** Makes a request (or finds the one made with the same Idempotency-Key) and announces it. */
export async function createStandaloneRequest(
  deps: AnswerDeps,
  input: NewStandaloneRequest,
): Promise<{ request: StoredRequest; replayed: boolean }> {
  const { request, owner } = input;
  if (!requestKindSpec(request.kind).creatableByApi) {
    throw new AppError("bad_request:input", {
      message: SIGN_INS_ARE_TOOLS,
      issues: [{ path: "/kind", message: `${request.kind} is not available through the API` }],
    });
  }
  // The audience as it will be stored: a retry that writes the default out means the same.
  const asked = input.audience ?? deps.policy.audienceFor(request);
  const audience: StoredAudience =
    typeof asked === "string"
      ? { audience: asked }
      : { audience: "group", group: { slug: asked.group, required: asked.required } };
  // A retry finds its request before anything else is checked: a retry after `expiresAt` passed
  // must still get the request it made back, not a complaint about the time.
  if (input.idempotencyKey !== null) {
    const earlier = await findApiRequestByKey({
      db: deps.db,
      ownerId: owner.id,
      idempotencyKey: input.idempotencyKey,
      createHash: input.createHash,
    });
    if (earlier) return replayOf(deps, earlier, audience);
  }
  checkAnswerSchema(request.data);
  if (input.escalation?.length && audience.audience === "owner")
    throw new AppError("bad_request:input", {
      message: "escalation is only for a request to reviewers or a group.",
      issues: [{ path: "/escalation", message: "is only for a request to reviewers or a group" }],
    });
  if (audience.group) await checkGroupAudience(deps, request.kind, audience.group, owner.id);
  if (request.expiresAt !== undefined) checkDeadline(request.expiresAt);
  const created = await createApiRequest({
    db: deps.db,
    input: {
      ownerId: owner.id,
      apiTokenId: input.apiTokenId,
      ...audience,
      request,
      ...(input.escalation?.length ? { escalation: input.escalation } : {}),
      idempotencyKey: input.idempotencyKey,
      createHash: input.createHash,
    },
  });
  if (created.status !== "created") return replayOf(deps, created, audience);
  await publishAll(deps.bus, created.events);
  return { request: created.request, replayed: false };
}

/** The deadline lies ahead, within the horizon the API documents (ADR 0058). */
function checkDeadline(expiresAt: string): void {
  const left = Date.parse(expiresAt) - Date.now();
  const message =
    left <= 0
      ? "must be in the future"
      : left > REQUEST_EXPIRY_HORIZON_MS
        ? `must be at most ${REQUEST_EXPIRY_HORIZON_DAYS} days from now`
        : null;
  if (message !== null)
    throw new AppError("bad_request:input", {
      message: `expiresAt ${message}.`,
      issues: [{ path: "/expiresAt", message }],
    });
}

type StoredAudience = { audience: Audience; group?: { slug: string; required: number } };

/**
 * A group's approval: the group exists, and enough of its members besides the asker (who never
 * counts, four eyes) are there to reach `required`. Refused with the field's path otherwise.
 */
async function checkGroupAudience(
  deps: AnswerDeps,
  kind: string,
  { slug, required }: { slug: string; required: number },
  ownerId: string,
): Promise<void> {
  const refuse = (path: string, message: string) =>
    new AppError("invalid:audience", {
      message: `${path.slice(1).replaceAll("/", ".")} ${message}.`,
      issues: [{ path, message }],
    });
  if (requestKindSpec(kind).form !== "approval")
    throw refuse("/audience", "may name a group only for an approval: a group votes to approve or decline");
  const group = await getApproverGroupBySlug({ db: deps.db, slug });
  if (!group) throw refuse("/audience/group", `names no approver group: there is no group "${slug}"`);
  const eligible = group.memberIds.filter((id) => id !== ownerId).length;
  if (required > eligible)
    throw refuse(
      "/audience/required",
      `must be at most ${eligible}: the group "${slug}" has ${eligible} member${eligible === 1 ? "" : "s"} besides you, who may not approve your own request`,
    );
}

/** The earlier request of this key, if it was made with the same body and the same audience. */
async function replayOf(
  deps: AnswerDeps,
  earlier: Exclude<CreatedApiRequest, { status: "created" }>,
  { audience, group }: StoredAudience,
): Promise<{ request: StoredRequest; replayed: true }> {
  const same = (r: StoredRequest) =>
    r.audience === audience &&
    (group ? r.audienceGroup === group.slug && r.required === group.required : true);
  if (earlier.status === "key_reused" || !same(earlier.request))
    throw new AppError("invalid:idempotency_key");
  return { request: await settle(deps, earlier.request), replayed: true };
}

/** Expires a request whose time is up before anyone sees it open. */
async function settle(deps: AnswerDeps, request: StoredRequest): Promise<StoredRequest> {
  if (!isDue(request)) return request;
  await expireRequest(deps, request);
  return (await getApiRequestByOwner({ db: deps.db, id: request.id, ownerId: request.ownerId })) ?? request;
}

/** The owner's API request, expired first if its time is up; anyone else's does not exist. */
export async function readStandaloneRequest(
  deps: AnswerDeps,
  { requestId, ownerId }: { requestId: string; ownerId: string },
): Promise<StoredRequest> {
  const request = await getApiRequestByOwner({ db: deps.db, id: requestId, ownerId });
  if (!request) throw new AppError("not_found:request");
  return settle(deps, request);
}

/**
 * Waits until the request leaves "open" or `timeoutMs` passes, then returns it as it stands.
 * The request's thread is its own, so any notice on it may be the answer: the waiter re-reads
 * the request. It listens before it reads, so an answer committed in between is heard; on
 * PostgreSQL the bus hears answers from every instance. No replay of the thread's events: a
 * waiter holds one listener and one timer, which is what lets many wait at once (ADR 0064).
 */
export async function waitForStandaloneRequest(
  deps: AnswerDeps,
  input: { requestId: string; ownerId: string; timeoutMs: number; signal?: AbortSignal },
): Promise<StoredRequest> {
  const current = await readStandaloneRequest(deps, input);
  if (current.status !== "open" || input.timeoutMs <= 0) return current;
  // Expiry is swept once a second; waking at the deadline answers at once even without a sweep.
  const expiresIn = current.request.expiresAt ? Date.parse(current.request.expiresAt) - Date.now() : Infinity;
  return waitOnThread(deps, input, current.threadId, Math.max(0, Math.min(input.timeoutMs, expiresIn + 10)));
}

/** The wait itself, apart so that it holds the request's ids, not the open request and its form. */
async function waitOnThread(
  deps: AnswerDeps,
  { requestId, ownerId, signal }: { requestId: string; ownerId: string; signal?: AbortSignal },
  threadId: string,
  waitMs: number,
): Promise<StoredRequest> {
  const closed = async () => {
    const now = await readStandaloneRequest(deps, { requestId, ownerId });
    return now.status === "open" ? undefined : now;
  };
  let heard = false;
  let over = false;
  let wake: (() => void) | undefined;
  const onNotice = (notice: EventNotice) => {
    // An in-process notice names its event; one from elsewhere (or a resync) must be read.
    if (notice.event && notice.event.type !== "request_resolved") return;
    heard = true;
    wake?.();
  };
  const end = () => {
    over = true;
    wake?.();
  };
  const stopListening = deps.bus.listen(threadId, onNotice);
  signal?.addEventListener("abort", end);
  const timer = setTimeout(end, waitMs);
  let done: StoredRequest | undefined;
  try {
    done = await closed();
    while (!done && !over && !signal?.aborted) {
      if (!heard) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      if (!heard) continue;
      heard = false;
      done = await closed();
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", end);
    stopListening();
  }
  // At the deadline the request is read once more: that read expires it if its time is up.
  return done ?? readStandaloneRequest(deps, { requestId, ownerId });
}

/** The owner withdraws an open request: it is answered `cancelled`, exactly once. */
export async function cancelStandaloneRequest(
  deps: AnswerDeps,
  { requestId, ownerId }: { requestId: string; ownerId: string },
): Promise<StoredRequest> {
  const request = await readStandaloneRequest(deps, { requestId, ownerId });
  if (request.status === "open") {
    const claim = await resolveRequest({
      db: deps.db,
      id: request.id,
      runId: null,
      threadId: request.threadId,
      toolName: request.toolName,
      resolution: { status: "cancelled", actorId: ownerId },
    });
    if (claim.claimed) {
      await publishAll(deps.bus, claim.events);
      return readStandaloneRequest(deps, { requestId, ownerId });
    }
  }
  const now = await readStandaloneRequest(deps, { requestId, ownerId });
  if (now.status === "expired") throw new AppError("expired:request");
  if (now.status === "answered") throw new AppError("conflict:answer");
  throw new AppError("conflict:request_closed");
}
