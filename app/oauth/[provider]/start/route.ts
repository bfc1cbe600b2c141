import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { getPageUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db/sql/client";
import { beginAuthorization } from "@/lib/oauth/begin-authorization";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { oauthErrorResponse } from "../../_lib/oauth-error-response";
import { parseProviderParam } from "../../_lib/provider-param";
import { redirectToSignIn } from "../../_lib/redirect-to-sign-in";

const startQuerySchema = z.object({ request: z.string().min(1).max(200) });

/** "Continue to <provider>": stores a single-use state for the request, then off to the provider. */
export async function GET(request: NextRequest, context: { params: Promise<{ provider: string }> }) {
  const user = await getPageUser();
  if (!user) return redirectToSignIn(request);
  try {
    const provider = parseProviderParam(await context.params);
    const query = startQuerySchema.safeParse({ request: request.nextUrl.searchParams.get("request") });
    if (!query.success) throw new OAuthError("state:malformed", "The sign-in link is missing its request");
    // Ownership (the request is this user's, open and unexpired) is checked inside.
    const url = await beginAuthorization({
      db: getDb(),
      runtime: getOAuthRuntime(),
      userId: user.id,
      provider,
      wireRequestId: query.data.request,
    });
    return NextResponse.redirect(url, 303);
  } catch (error) {
    return oauthErrorResponse(error);
  }
}
