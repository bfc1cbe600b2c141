import { type NextRequest, NextResponse } from "next/server";
import { checkActionOrigin } from "@/lib/http/action-origin";
import { checkRequestBody } from "@/lib/http/request-body-check";
import { requestIdFor } from "@/lib/http/request-id";
import { createNonce, responseSecurityHeaders } from "@/lib/http/security-headers";
import { appBaseUrl } from "@/lib/oauth/app-url";

// Runs in front of every request. It gives each response its security headers and a fresh CSP
// nonce; Next reads the nonce from the request's Content-Security-Policy header and puts it on
// the scripts it renders, which is why the policy travels on the request as well. Each request
// also gets an id, on the request for the logs and on the response for whoever reports a problem.
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const nonce = createNonce();
  const requestId = requestIdFor(request.headers.get("x-request-id"));
  const https = request.nextUrl.protocol === "https:" || appBaseUrl().startsWith("https:");
  const headers = responseSecurityHeaders({
    nonce,
    requestId,
    dev: process.env.NODE_ENV === "development",
    https,
  });
  const csp = headers["Content-Security-Policy"]!;
  const withHeaders = (response: NextResponse) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };

  const refused = checkActionOrigin(request) ?? (await checkRequestBody(request));
  if (refused) {
    return withHeaders(NextResponse.json(refused, { status: refused.status }));
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("x-request-id", requestId);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }));
}

export const config = {
  // Everything, static assets included: nosniff and the rest belong on every response.
  matcher: "/:path*",
};
