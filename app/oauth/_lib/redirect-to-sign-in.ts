import { type NextRequest, NextResponse } from "next/server";
import { loginPathFor } from "@/lib/auth/guards";

/**
 * A signed-out visit to an OAuth route signs in first and then comes back to the very same
 * URL: nothing has been consumed yet, so the link still works afterwards.
 */
export function redirectToSignIn(request: NextRequest): NextResponse {
  return NextResponse.redirect(
    new URL(loginPathFor(request.nextUrl.pathname + request.nextUrl.search), request.nextUrl),
    303,
  );
}
