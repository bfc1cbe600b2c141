import { isAppError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { isOAuthError, type OAuthErrorCode } from "@/lib/oauth/oauth-error";

const oauthStatus: Record<OAuthErrorCode, number> = {
  "config:invalid": 500,
  "provider:unknown": 404,
  "state:malformed": 400,
  "state:tampered": 400,
  "state:expired": 410,
  "state:unknown": 400,
  "state:used": 409,
  "state:mismatch": 403,
  "request:not_found": 404,
  "request:closed": 409,
  "provider:error": 502,
  "exchange:failed": 502,
  "token:tampered": 500,
  "token:wrong_key": 500,
  "token:malformed": 500,
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * A plain page with the right status code: these responses end a browser redirect chain, and
 * the person needs to read what happened (and that nothing was changed) rather than parse JSON.
 */
export function oauthErrorResponse(error: unknown): Response {
  let status = 500;
  let code = "internal";
  let message = "Something went wrong on our side. Please try again from your chat.";
  if (isOAuthError(error)) {
    status = oauthStatus[error.code];
    code = error.code;
    if (status < 500 || error.code === "provider:error" || error.code === "exchange:failed")
      message = error.message;
  } else if (isAppError(error)) {
    status = error.status;
    code = error.code;
    message = error.message;
  }
  if (status >= 500 && status !== 502) logger.error({ err: error }, "OAuth flow failed");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in not completed · toolnexus</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#111827}
.code{color:#6b7280;font-size:.875rem}a{color:#1d4ed8}</style></head>
<body><main>
<h1>Sign-in not completed</h1>
<p role="alert" data-testid="oauth-error">${escapeHtml(message)}</p>
<p>Nothing was changed. You can start the sign-in again from the request in your chat.</p>
<p class="code">Error code: ${escapeHtml(code)}</p>
<p><a href="/chat">Back to your chats</a></p>
</main></body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
