import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { API_SCOPES, apiTokenLimit, mintApiToken } from "@/lib/auth/api-token-auth";
import { deleteApiTokenToolGrant } from "@/lib/db/api-token-grants";
import { type ApiTokenRow, createApiToken, getApiTokenById, revokeApiTokenById } from "@/lib/db/api-tokens";
import type { DbClient } from "@/lib/db/db-types";
import { AppError } from "@/lib/errors";

// Personal API tokens (ADR 0035): people make and revoke their own; admins revoke anyone's.

/** How long a new token lasts, in days; null never expires. */
export const TOKEN_LIFETIMES = [7, 30, 90, 365] as const;

export const createTokenInput = z
  .object({
    name: z.string().trim().min(1, "Give the token a name.").max(80, "At most 80 characters."),
    scopes: z.array(z.enum(API_SCOPES)).min(1, "Choose at least one scope.").max(API_SCOPES.length),
    expiresInDays: z.union([z.literal(TOKEN_LIFETIMES), z.null()]),
  })
  .strict();

/**
 * Makes a token for the signed-in person. The token is in this result and nowhere else: the
 * database keeps its hash, so the page that asked shows it once and no page can show it again.
 * Refused once the person holds `limit` active tokens (TOOLNEXUS_API_TOKEN_LIMIT, 20).
 */
export const createToken = defineAction(
  { role: "user", input: createTokenInput },
  async (
    { actor, input },
    { db, limit = apiTokenLimit() }: { db: DbClient; limit?: number },
  ): Promise<{ token: string; row: ApiTokenRow }> => {
    const minted = mintApiToken();
    const expiresAt =
      input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * 24 * 60 * 60 * 1000);
    const created = await createApiToken({
      db,
      userId: actor.id,
      name: input.name,
      tokenHash: minted.tokenHash,
      prefix: minted.prefix,
      scopes: [...new Set(input.scopes)],
      expiresAt,
      limit,
    });
    if (created.status === "limit") {
      throw new AppError("conflict:token_limit", {
        message: `You already hold ${limit} active API tokens, the most one person may. Revoke one you no longer use, then make the new one.`,
      });
    }
    return { token: minted.token, row: created.row };
  },
);

export const revokeTokenInput = z.object({ tokenId: z.string().min(1).max(64) }).strict();

async function revoke(db: DbClient, tokenId: string, actorId: string): Promise<{ tokenId: string }> {
  if (!(await revokeApiTokenById({ db, id: tokenId, actorId }))) throw new AppError("conflict:token_revoked");
  return { tokenId };
}

/** Revokes one of the signed-in person's own tokens; anyone else's does not exist for them. */
export const revokeOwnToken = defineAction(
  { role: "user", input: revokeTokenInput },
  async ({ actor, input: { tokenId } }, { db }: { db: DbClient }) => {
    const token = await getApiTokenById({ db, id: tokenId });
    if (!token || token.userId !== actor.id) throw new AppError("not_found:token");
    return revoke(db, tokenId, actor.id);
  },
);

/** An admin revokes anyone's token (a leaked one, a departed person's). */
export const revokeAnyToken = defineAction(
  { role: "admin", input: revokeTokenInput },
  async ({ actor, input: { tokenId } }, { db }: { db: DbClient }) => {
    if (!(await getApiTokenById({ db, id: tokenId }))) throw new AppError("not_found:token");
    return revoke(db, tokenId, actor.id);
  },
);

export const revokeTokenGrantInput = z
  .object({ tokenId: z.string().min(1).max(64), toolName: z.string().min(1).max(200) })
  .strict();

/**
 * The token's owner takes back "always allow <tool> for this token": its next permission prompt
 * for the tool asks again. The token id comes from the browser, so the delete itself is bound to
 * the signed-in person's tokens; anyone else's grant does not exist for them.
 */
export const revokeTokenGrant = defineAction(
  { role: "user", input: revokeTokenGrantInput },
  async ({ actor, input: { tokenId, toolName } }, { db }: { db: DbClient }) => {
    if (!(await deleteApiTokenToolGrant({ db, tokenId, toolName, userId: actor.id }))) {
      throw new AppError("not_found:token_grant");
    }
    return { tokenId, toolName };
  },
);
