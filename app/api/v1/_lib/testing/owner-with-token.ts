import { newUser } from "@/app/_lib/test-engine";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import { type ApiTokenScope, createApiToken } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";

/** A new user with a token of both request scopes, for tests that call the API as them. */
export async function ownerWithToken(
  db: Db,
  name = "tests",
  scopes: ApiTokenScope[] = ["requests:write", "requests:read"],
) {
  const owner = await newUser(db, "user");
  const minted = mintApiToken();
  const created = await createApiToken({
    db,
    userId: owner.id,
    name,
    scopes,
    expiresAt: null,
    limit: 20,
    ...minted,
  });
  if (created.status !== "created") throw new Error("the token limit was reached");
  return { owner, token: minted.token };
}
