import { logger } from "@/lib/log/logger";
import { OAuthError } from "./oauth-error";

// What a provider or an authorization server says went wrong is text a remote party chose
// ("call this number to unlock your account"). People read fixed words chosen by its error
// code; the provider's own description goes to the server log only, cleaned and cut short.

/** `{label}` is the provider's or the MCP server's name, as the administrator configured it. */
const wordsByCode: Record<string, string> = {
  // RFC 6749 §4.1.2.1: the authorization endpoint's codes.
  access_denied: "You declined the sign-in at {label}, so nothing was connected.",
  invalid_request:
    "{label} could not read the sign-in request. Try again from your chat; if it happens again, tell your administrator.",
  unauthorized_client:
    "{label} does not let this app sign in this way. Your administrator needs to check the app's registration there.",
  unsupported_response_type:
    "{label} does not support the kind of sign-in this app uses. Your administrator needs to check its settings.",
  invalid_scope:
    "{label} did not accept the permissions this app asked for. Your administrator needs to check its settings.",
  server_error: "{label} had a problem of its own and could not finish the sign-in. Try again in a moment.",
  temporarily_unavailable: "{label} is busy or down for maintenance. Try again in a few minutes.",
  // RFC 6749 §5.2 (the token endpoint) and RFC 7591 §3.2.2 (dynamic client registration).
  invalid_client:
    "{label} did not recognise this app. Your administrator needs to check the app's registration there.",
  invalid_grant:
    "{label} did not accept the sign-in, which may have taken too long. Start it again from your chat.",
  unsupported_grant_type:
    "{label} does not support the kind of sign-in this app uses. Your administrator needs to check its settings.",
  invalid_redirect_uri:
    "{label} did not accept this app's return address. Your administrator needs to check the app's registration there.",
  invalid_client_metadata:
    "{label} did not accept this app's registration. Your administrator needs to check its settings.",
};

const genericWords = "{label} could not complete the sign-in. Try again from your chat.";

/** The words a person reads for a provider's error code; a code no RFC defines gets the generic line. */
export function providerErrorWords(label: string, code: string | undefined): string {
  const words = (code !== undefined && Object.hasOwn(wordsByCode, code) && wordsByCode[code]) || genericWords;
  return words.replaceAll("{label}", label);
}

const maxLoggedChars = 300;
// Long runs of token characters (bearer tokens, codes, keys a provider may echo back).
const secretLike = /[A-Za-z0-9._~+/=-]{32,}/g;

/**
 * A provider's text as the log may keep it: control and formatting characters (line breaks that
 * forge log lines, bidi overrides) removed, anything shaped like a token replaced, and cut short.
 */
export function loggableProviderText(text: string): string {
  const clean = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(secretLike, "[redacted]")
    .trim();
  return clean.length > maxLoggedChars ? `${clean.slice(0, maxLoggedChars)}…` : clean;
}

/**
 * The error a sign-in ends with when the provider answered with an error: fixed words for
 * the page, and one log line with what the provider said (the only place it is kept).
 */
export function providerRefusal({
  label,
  code,
  description,
  during,
}: {
  label: string;
  code: string | undefined;
  description?: string;
  /** Which step the provider refused: the callback, the token exchange, discovery, registration. */
  during: string;
}): OAuthError {
  logger.warn(
    {
      provider: label,
      during,
      providerCode: code === undefined ? undefined : loggableProviderText(code).slice(0, 80),
      providerDescription: description === undefined ? undefined : loggableProviderText(description),
    },
    "sign-in refused by the provider",
  );
  return new OAuthError("provider:error", providerErrorWords(label, code));
}
