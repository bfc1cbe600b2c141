import "server-only";
import type { TokenCaller } from "@/lib/auth/api-token-auth";
import {
  createApiTokenToolGrant,
  findToolGrantRevokedSince,
  hasApiTokenToolGrant,
  recordAllowedByGrant,
} from "@/lib/db/api-token-grants";
import type { DbClient } from "@/lib/db/db-types";
import type { StoredRequest } from "@/lib/db/requests";
import { allowForTokenTicked } from "./tool-requests";

// "Always allow <tool> for this token" on permission prompts (ADR 0065). The grant names the
// token that made the approved request, known here from its credentials; the approver's answer
// only says yes, so no token id from a browser is ever read.

/** True when a grant lets this prompt through unasked; the audit records that it did. */
export async function allowedByGrant(
  db: DbClient,
  caller: TokenCaller,
  prompt: { toolName: string; toolUseId: string | undefined },
): Promise<boolean> {
  const { tokenId } = caller;
  if (!(await hasApiTokenToolGrant({ db, tokenId, toolName: prompt.toolName }))) return false;
  await recordAllowedByGrant({ db, tokenId, ownerId: caller.actor.id, ...prompt });
  return true;
}

/**
 * Records the grant the approver ticked. The engine let only someone who may approve the request
 * answer it, so the answer's actor is who grants.
 */
export async function grantIfTicked(
  db: DbClient,
  caller: TokenCaller,
  toolName: string,
  stored: StoredRequest,
): Promise<void> {
  const actorId = stored.answer?.actorId;
  if (!actorId || !allowForTokenTicked(stored)) return;
  await createApiTokenToolGrant({ db, tokenId: caller.tokenId, toolName, actorId, requestId: stored.id });
}

/**
 * When the approval ticked "always allow" and the token's grant for the tool was revoked after
 * it was given, the revocation's id: that approval is not to be reused, nor to grant again.
 */
export async function tickRevokedSince(
  db: DbClient,
  caller: TokenCaller,
  toolName: string,
  stored: StoredRequest,
): Promise<string | undefined> {
  const answeredAt = stored.answer?.createdAt;
  if (!answeredAt || !allowForTokenTicked(stored)) return undefined;
  const since = new Date(answeredAt);
  return (await findToolGrantRevokedSince({ db, tokenId: caller.tokenId, toolName, since }))?.id;
}
