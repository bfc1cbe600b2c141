export type OAuthErrorCode =
  | "config:invalid"
  | "provider:unknown"
  | "state:malformed"
  | "state:tampered"
  | "state:expired"
  | "state:unknown"
  | "state:used"
  | "state:mismatch"
  | "request:not_found"
  | "request:closed"
  | "provider:error"
  | "exchange:failed"
  | "token:tampered"
  | "token:wrong_key"
  | "token:malformed";

/**
 * Every failure of the OAuth flow carries a stable code so the callback page can explain what
 * went wrong without leaking provider responses or secrets.
 */
export class OAuthError extends Error {
  readonly code: OAuthErrorCode;

  constructor(code: OAuthErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "OAuthError";
    this.code = code;
  }
}

export function isOAuthError(value: unknown, code?: OAuthErrorCode): value is OAuthError {
  return value instanceof OAuthError && (code === undefined || value.code === code);
}
