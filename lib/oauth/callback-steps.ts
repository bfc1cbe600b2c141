import { z } from "zod";
import type { DbClient } from "@/lib/db/db-types";
import { claimOAuthState } from "@/lib/db/oauth-states";
import { getRequestById } from "@/lib/db/requests";
import type { Actor } from "@/lib/domain/roles";
import type { AnswerInput } from "@/lib/engine/engine-types";
import { AppError, isAppError } from "@/lib/errors";
import { codeVerifierContext } from "./begin-authorization";
import { OAuthError } from "./oauth-error";
import type { OAuthRuntime } from "./oauth-runtime";
import { providerRefusal } from "./provider-error";
import { decryptionKeys } from "./secret-keys";
import { hashState, type StateClaims } from "./state";
import { decryptToken } from "./token-crypto";

// The steps every sign-in callback takes (a tool's provider, an MCP server's authorization
// server), so the checks that keep a forged, replayed or foreign response from changing anything
// are written once.

export const callbackQuerySchema = z
  .object({
    state: z.string().min(1).max(4096),
    code: z.string().min(1).max(4096).optional(),
    error: z.string().min(1).max(200).optional(),
    error_description: z.string().max(2000).optional(),
    iss: z.string().max(2000).optional(),
  })
  .refine((q) => Boolean(q.code) !== Boolean(q.error), { message: "exactly one of code and error" });

export type CallbackQuery = z.infer<typeof callbackQuerySchema>;

export type CallbackOutcome =
  | { status: "connected"; threadId: string }
  | { status: "declined"; threadId: string }
  /** Tokens were stored, but the request had already been resolved (answered, expired, cancelled). */
  | { status: "connected_request_closed"; threadId: string };

export type AnswerRequestFn = (input: AnswerInput) => Promise<unknown>;

/** The callback's query, or a refusal that names nothing of it. */
export function parseCallbackQuery(params: URLSearchParams): CallbackQuery {
  const parsed = callbackQuerySchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) throw new OAuthError("state:malformed", "The sign-in response is incomplete");
  return parsed.data;
}

/** Treats "somebody else resolved it first" as an outcome, not a failure. */
export async function answerOrClosed(answer: AnswerRequestFn, input: AnswerInput): Promise<boolean> {
  try {
    await answer(input);
    return true;
  } catch (error) {
    if (isAppError(error, "conflict:answer") || isAppError(error, "conflict:request_closed")) return false;
    if (isAppError(error, "conflict:run_stopped")) return false;
    if (isAppError(error, "expired:request")) return false;
    throw error;
  }
}

/** The PKCE verifier sealed into a sign-in's state; a state that does not open was tampered with. */
export function readStoredCodeVerifier(sealed: string, runtime: OAuthRuntime, stateHash: string): string {
  try {
    return decryptToken(sealed, decryptionKeys(runtime.keys), codeVerifierContext(stateHash));
  } catch (error) {
    throw new OAuthError("state:tampered", "The stored sign-in state could not be read", { cause: error });
  }
}

/**
 * Consumes the sign-in's state, once (a replay, even one racing the first, is refused), and
 * checks that what was stored at the start is this user's sign-in with this provider for the
 * request the signed state names. Call it after every check that can fail without side effects.
 */
export async function claimCallbackState({
  db,
  user,
  state,
  claims,
  provider,
  now,
}: {
  db: DbClient;
  user: Actor;
  state: string;
  claims: StateClaims;
  provider: string;
  now: Date;
}) {
  const stateHash = hashState(state);
  const claim = await claimOAuthState({ db, stateHash, now });
  if (claim.status === "unknown")
    throw new OAuthError("state:unknown", "This sign-in link is not known here");
  if (claim.status === "used") throw new OAuthError("state:used", "This sign-in link has already been used");
  if (claim.status === "expired") throw new OAuthError("state:expired", "The sign-in link has expired");
  const stored = claim.state;
  if (
    stored.requestRowId !== claims.requestRowId ||
    stored.userId !== user.id ||
    stored.provider !== provider
  ) {
    throw new OAuthError("state:mismatch", "This sign-in response does not match its request");
  }
  const request = await getRequestById({ db, id: stored.requestRowId });
  if (!request) throw new AppError("not_found:request");
  return { stored, stateHash, request, actor: { id: user.id, role: user.role } };
}

/**
 * The provider sent an error instead of a code. The person saying no (`access_denied`) declines
 * the request; any other error leaves it open, so they can try again from the chat, and is told
 * in fixed words chosen by its code, never in the provider's (its description is only logged).
 */
export async function declineOnProviderError({
  error,
  description,
  label,
  answerRequest,
  request,
  actor,
}: {
  error: string;
  description: string | undefined;
  label: string;
  answerRequest: AnswerRequestFn;
  request: { id: string; threadId: string };
  actor: { id: string; role: Actor["role"] };
}): Promise<CallbackOutcome> {
  if (error !== "access_denied")
    throw providerRefusal({ label, code: error, description, during: "callback" });
  const answered = await answerOrClosed(answerRequest, {
    requestId: request.id,
    answer: { ok: false, reason: "declined" },
    actor,
  });
  if (!answered) throw new AppError("conflict:request_closed");
  return { status: "declined", threadId: request.threadId };
}
