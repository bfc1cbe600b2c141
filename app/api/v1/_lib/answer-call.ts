import "server-only";
import { publicErrorOf } from "@/app/_lib/public-error";
import { getRequestById } from "@/lib/db/requests";
import { isAppError } from "@/lib/errors";
import type { answerRequestRoute } from "./api-routes";
import type { ApiReply, ApiServices } from "./define-api-route";
import { apiRequestsWithVotes, type CallOf, callerOf } from "./request-calls";

// POST /api/v1/requests/{id}/answer (ADR 0077): a person answers, or votes, with their own token,
// through the engine's one answer path, so under exactly the rules of the inbox.

export async function answerRequestCall(
  call: CallOf<typeof answerRequestRoute>,
  { db, engine }: ApiServices,
): Promise<ApiReply> {
  const caller = callerOf(call);
  const { ok, data, reason } = call.body;
  const requestId = call.params.id;
  try {
    const { request } = await engine.answerRequest({
      requestId,
      actor: caller.actor,
      answer: { ok, ...(data ? { data } : {}), ...(reason ? { reason } : {}) },
    });
    const [body] = await apiRequestsWithVotes(db, [request]);
    return { status: 200, body };
  } catch (error) {
    // A closed request or a second vote: the refusal carries the outcome so far. The caller got
    // this far only if they may see the request.
    if (!isAppError(error) || error.status !== 409) throw error;
    const now = await getRequestById({ db, id: requestId });
    if (!now) throw error;
    const [request] = await apiRequestsWithVotes(db, [now]);
    return { status: 409, body: { ...publicErrorOf(error), request } };
  }
}
