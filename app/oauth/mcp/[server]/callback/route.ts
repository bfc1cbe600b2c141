import { type NextRequest, NextResponse } from "next/server";
import { getAppServices } from "@/app/_lib/app-services";
import { getPageUser } from "@/lib/auth/guards";
import { completeMcpAuthorization } from "@/lib/oauth/complete-mcp-authorization";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { resolveMcpServerParam } from "../../../_lib/mcp-server-param";
import { oauthErrorResponse } from "../../../_lib/oauth-error-response";
import { redirectToSignIn } from "../../../_lib/redirect-to-sign-in";

/**
 * Where the MCP server's authorization server sends the browser back. As for the tools'
 * providers: signed out, sign in and come back (nothing is consumed yet); signed in, the state
 * must have been issued to this very user, which is checked before anything changes.
 */
export async function GET(request: NextRequest, context: { params: Promise<{ server: string }> }) {
  const user = await getPageUser();
  if (!user) return redirectToSignIn(request);
  try {
    const { name, server } = await resolveMcpServerParam(await context.params);
    const { db, engine } = await getAppServices();
    const outcome = await completeMcpAuthorization({
      db,
      runtime: getOAuthRuntime(),
      user: { id: user.id, role: user.role },
      server,
      serverName: name,
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
