import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { getPageUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db/sql/client";
import { beginMcpAuthorization } from "@/lib/oauth/begin-mcp-authorization";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { resolveMcpServerParam } from "../../../_lib/mcp-server-param";
import { oauthErrorResponse } from "../../../_lib/oauth-error-response";
import { redirectToSignIn } from "../../../_lib/redirect-to-sign-in";

const startQuerySchema = z.object({ request: z.string().min(1).max(200) });

/** "Continue to <server host>": the MCP server's sign-in for one parked request. */
export async function GET(request: NextRequest, context: { params: Promise<{ server: string }> }) {
  const user = await getPageUser();
  if (!user) return redirectToSignIn(request);
  try {
    const query = startQuerySchema.safeParse({ request: request.nextUrl.searchParams.get("request") });
    if (!query.success) throw new OAuthError("state:malformed", "The sign-in link is missing its request");
    const { name, server } = await resolveMcpServerParam(await context.params);
    // Ownership (the request is this user's, open and unexpired) is checked inside.
    const url = await beginMcpAuthorization({
      db: getDb(),
      runtime: getOAuthRuntime(),
      userId: user.id,
      server,
      serverName: name,
      wireRequestId: query.data.request,
    });
    return NextResponse.redirect(url, 303);
  } catch (error) {
    return oauthErrorResponse(error);
  }
}
