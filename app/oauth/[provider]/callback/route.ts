import { type NextRequest, NextResponse } from "next/server";
import { getAppServices } from "@/app/_lib/app-services";
import { getPageUser } from "@/lib/auth/guards";
import { completeAuthorization } from "@/lib/oauth/complete-authorization";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { oauthErrorResponse } from "../../_lib/oauth-error-response";
import { parseProviderParam } from "../../_lib/provider-param";
import { redirectToSignIn } from "../../_lib/redirect-to-sign-in";

/**
 * Where the provider sends the browser back. Signed out (the session lapsed during consent):
 * sign in and come back here, since nothing has been consumed yet. Signed in: the state must
 * have been issued to this very user (checked inside, before anything changes).
 */
export async function GET(request: NextRequest, context: { params: Promise<{ provider: string }> }) {
  const user = await getPageUser();
  if (!user) return redirectToSignIn(request);
  try {
    const provider = parseProviderParam(await context.params);
    const { db, engine } = await getAppServices();
    const outcome = await completeAuthorization({
      db,
      runtime: getOAuthRuntime(),
      user: { id: user.id, role: user.role },
      provider,
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
