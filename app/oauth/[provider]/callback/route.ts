import { type NextRequest, NextResponse } from "next/server";
import { getAppServices } from "@/app/requests/_lib/app-services";
import { getPageUser, loginPathFor } from "@/lib/auth/page-guards";
import { completeAuthorization } from "@/lib/oauth/complete-authorization";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { oauthErrorResponse } from "../../_lib/oauth-error-response";
import { providerParamsSchema } from "../../_lib/provider-param";

/**
 * Where the provider sends the browser back. Signed out (the session lapsed during consent):
 * sign in and come back here, since nothing has been consumed yet. Signed in: the state must
 * have been issued to this very user (checked inside, before anything changes).
 */
export async function GET(request: NextRequest, context: { params: Promise<{ provider: string }> }) {
  const user = await getPageUser();
  if (!user) {
    return NextResponse.redirect(
      new URL(loginPathFor(request.nextUrl.pathname + request.nextUrl.search), request.nextUrl),
      303,
    );
  }
  try {
    const params = providerParamsSchema.safeParse(await context.params);
    if (!params.success) throw new OAuthError("provider:unknown", "No such sign-in provider");
    const { db, engine } = await getAppServices();
    const outcome = await completeAuthorization({
      db,
      runtime: getOAuthRuntime(),
      user: { id: user.id, role: user.role },
      provider: params.data.provider,
      params: request.nextUrl.searchParams,
      answerRequest: (input) => engine.answerRequest(input),
    });
    return NextResponse.redirect(
      new URL(`/chat/${encodeURIComponent(outcome.threadId)}`, request.nextUrl),
      303,
    );
  } catch (error) {
    return oauthErrorResponse(error);
  }
}
