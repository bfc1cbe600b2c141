import { getRequestById, type StoredRequest } from "@/lib/db/requests";
import type { Actor } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";
import { requestActionInput } from "./actor-input";
import type { AnswerDeps } from "./answer-request";
import { expireRequest, isDue } from "./expire-request";

/**
 * A request as `actor` may see it: those who may answer it, and its chat's owner. A request
 * whose time is up is expired first, so nobody is shown a form that can no longer be sent.
 */
export async function readRequest(
  deps: AnswerDeps,
  input: { requestId: string; actor: Actor },
): Promise<StoredRequest> {
  const parsed = requestActionInput.safeParse(input);
  if (!parsed.success) throw new AppError("bad_request:input");
  const { requestId, actor } = parsed.data;
  const request = await getRequestById({ db: deps.db, id: requestId });
  if (!request) throw new AppError("not_found:request");
  const mayAnswer = deps.policy.mayAnswer({ actor, audience: request.audience, ownerId: request.ownerId });
  // The same refusal as for an unknown id: a stranger cannot tell whether the id exists.
  if (!mayAnswer && request.ownerId !== actor.id) throw new AppError("not_found:request");
  if (!isDue(request)) return request;
  await expireRequest(deps, request);
  return (await getRequestById({ db: deps.db, id: requestId })) ?? request;
}
