export type ToolnexusErrorCode =
  | "config:missing_api_key"
  | "config:unknown_style"
  | "config:invalid"
  | "provider:http"
  | "provider:network"
  | "provider:malformed_response"
  | "provider:malformed_sse"
  | "aborted"
  | "timeout"
  | "checkpoint:invalid"
  | "checkpoint:tampered"
  | "answer:unknown_id"
  | "answer:invalid";

// A process may hold two copies of the library (a bundler that bundles twice, two installed
// versions): errors carry a brand under a process-wide symbol and `instanceof` checks it.
const TOOLNEXUS_ERROR = Symbol.for("toolnexus.ToolnexusError");

/** The one error type the library throws; `code` is stable, `message` is for people. */
export class ToolnexusError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && TOOLNEXUS_ERROR in value;
  }

  readonly [TOOLNEXUS_ERROR] = true;
  readonly code: ToolnexusErrorCode;
  /** HTTP status of a provider response, when there was one. */
  readonly status?: number;
  /** An excerpt of the provider's response body, when there was one. */
  readonly body?: string;
  /** The pause a provider asked for (its Retry-After) before a retry, when it said. */
  readonly retryAfterMs?: number;

  constructor(
    code: ToolnexusErrorCode,
    message: string,
    options: { status?: number; body?: string; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolnexusError";
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
    if (options.body !== undefined) this.body = options.body;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

export function isToolnexusError(value: unknown, code?: ToolnexusErrorCode): value is ToolnexusError {
  return value instanceof ToolnexusError && (code === undefined || value.code === code);
}
