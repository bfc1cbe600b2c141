// The app's single error type. Every layer throws AppError with a stable code; the web layer
// turns it into an HTTP status and a message people can read. Nothing about storage (SQL,
// constraint names, stack traces) is ever part of `message`, so it is safe to show.

export const appErrorCatalog = {
  "unauthorized:session": { status: 401, message: "Please sign in to continue." },
  "unauthorized:token": {
    status: 401,
    message:
      "Send a valid API token as `Authorization: Bearer <token>` (it may have been revoked or have expired).",
  },
  "forbidden:scope": { status: 403, message: "This API token does not have the scope this call needs." },
  "forbidden:request": { status: 403, message: "You are not allowed to answer this request." },
  "forbidden:four_eyes": {
    status: 403,
    message:
      "You asked for this, so your vote cannot count: another member of the group must approve it (four eyes).",
  },
  "forbidden:run": { status: 403, message: "You are not allowed to act on this run." },
  "forbidden:role": { status: 403, message: "Your role does not allow this." },
  "forbidden:own_role": {
    status: 403,
    message: "You cannot change your own role. Ask another admin to do it.",
  },
  "not_found:request": { status: 404, message: "This request does not exist." },
  "not_found:run": { status: 404, message: "This run does not exist." },
  "not_found:thread": { status: 404, message: "This chat does not exist." },
  "not_found:user": { status: 404, message: "This user does not exist." },
  "not_found:absence": { status: 404, message: "This absence does not exist or has already ended." },
  "not_found:token": { status: 404, message: "This API token does not exist." },
  "not_found:route": { status: 404, message: "There is no such API call." },
  "not_found:mcp_server": { status: 404, message: "This MCP server does not exist (any more)." },
  "conflict:mcp_server_name": {
    status: 409,
    message: "A server with this name already exists. Choose another name.",
  },
  "not_found:webhook": { status: 404, message: "This webhook endpoint does not exist (any more)." },
  "not_found:webhook_delivery": { status: 404, message: "This webhook delivery does not exist (any more)." },
  "conflict:webhook_delivery_pending": {
    status: 409,
    message: "This delivery is already waiting to be sent; it cannot be replayed until it is sent or fails.",
  },
  "not_found:tool": { status: 404, message: "The agent has no tool of this name." },
  "not_found:group": { status: 404, message: "This approver group does not exist (any more)." },
  "conflict:group_slug": {
    status: 409,
    message: "A group with this slug already exists. Choose another slug.",
  },
  "conflict:group_in_use": {
    status: 409,
    message: "Rules still address this group. Change those rules first.",
  },
  "conflict:rules_changed": {
    status: 409,
    message: "This tool's rules were changed meanwhile. Reload the page and try again.",
  },
  "not_found:allowance": { status: 404, message: "This tool is not allowed in this chat (any more)." },
  "not_found:token_grant": { status: 404, message: "This tool is not allowed for this token (any more)." },
  "conflict:answer": { status: 409, message: "This request has already been answered." },
  "conflict:vote": {
    status: 409,
    message: "You have already voted on this request; each member votes once.",
  },
  "conflict:vote_covered": {
    status: 409,
    message: "This person's vote on this request was already cast by the one covering for them, or by them.",
  },
  "conflict:vote_late": {
    status: 409,
    message:
      "This request was settled before your vote arrived. Your vote is recorded as too late and did not count.",
  },
  "conflict:request_closed": { status: 409, message: "This request is no longer open." },
  "conflict:request_taken": { status: 409, message: "Another reviewer is on this request." },
  "conflict:decision_held": {
    status: 409,
    message: "Another reviewer has just decided this request; it takes effect in a few seconds.",
  },
  "conflict:decision_committed": {
    status: 409,
    message: "Too late to undo: the decision has already taken effect.",
  },
  "conflict:run_busy": { status: 409, message: "This chat is still working on a previous message." },
  "conflict:run_finished": { status: 409, message: "This run has already ended." },
  "conflict:calls_started": {
    status: 409,
    message:
      "An answer had already let the run go on and the call waiting for it has started, so the run was not stopped yet. If the call finishes within 30 seconds, its result will show in the chat and you can stop the run after that; if it is still running then, the run is stopped and whatever the call returns later is discarded.",
  },
  "conflict:run_stopped": {
    status: 409,
    message: "The run was stopped before this answer arrived, so the call it was for never ran.",
  },
  "conflict:last_admin": {
    status: 409,
    message: "This is the last admin. Make someone else an admin before changing this role.",
  },
  "conflict:role_changed": {
    status: 409,
    message: "This user's role was changed meanwhile. Reload the page and try again.",
  },
  "conflict:policy_changed": {
    status: 409,
    message: "This tool's policy was changed meanwhile. Reload the page and try again.",
  },
  "conflict:token_revoked": { status: 409, message: "This API token has already been revoked." },
  "conflict:token_limit": {
    status: 409,
    message: "You hold as many active API tokens as one person may. Revoke one you no longer use first.",
  },
  "invalid:idempotency_key": {
    status: 422,
    message: "This Idempotency-Key was already used for a request with a different body.",
  },
  "rate_limited:token": {
    status: 429,
    message: "Too many calls with this API token. Slow down and try again.",
  },
  "expired:request": { status: 410, message: "This request has expired and can no longer be answered." },
  "invalid:workspace": {
    status: 422,
    message:
      "This tool works on files on the server, and no folder for it has been set up yet. Ask whoever runs this server to choose one; then it can be switched on.",
  },
  "invalid:audience": {
    status: 422,
    message: "The audience names a group that cannot approve this request.",
  },
  "invalid:unconfirmed_free": {
    status: 422,
    message:
      "This tool says it can destroy things or reach the outside world. Confirm that it may run without anyone approving it.",
  },
  "invalid:answer": { status: 422, message: "The answer does not match the requested form." },
  "bad_request:input": { status: 400, message: "The submitted data is not valid." },
  "unavailable:database": {
    status: 503,
    message:
      "The service is briefly unavailable. You are still signed in: please try again in a few seconds.",
  },
  "unsupported_media_type:body": {
    status: 415,
    message: "Send the request body as JSON, with Content-Type: application/json.",
  },
  "method_not_allowed:route": { status: 405, message: "This API call does not take this method." },
  "internal:unexpected": { status: 500, message: "Something went wrong on our side. Please try again." },
} as const satisfies Record<string, { status: number; message: string }>;

export type AppErrorCode = keyof typeof appErrorCatalog;

/** One problem with a submitted value, addressed by a JSON pointer into the value. */
export interface FieldIssue {
  path: string;
  message: string;
}

// The Next server bundles instrumentation (which starts the engine) apart from the routes, so one
// process holds two copies of this module and two AppError classes. Errors carry a brand under
// a process-wide symbol and `instanceof` checks the brand, so an AppError the engine throws is
// one to the route that catches it too.
const APP_ERROR = Symbol.for("toolnexus.AppError");

/**
 * Next hands a page's error boundary a server error's `digest` and none of its words, but keeps a
 * digest the error already has. An `unavailable:database` error carries this one, so the error
 * page can say the service is briefly unavailable (app/error.tsx) rather than that it broke.
 */
export const UNAVAILABLE_DIGEST = "toolnexus:unavailable";

export class AppError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && APP_ERROR in value;
  }

  readonly [APP_ERROR] = true;
  readonly code: AppErrorCode;
  readonly status: number;
  /** Per-field problems a form can show next to its inputs (validation codes only). */
  readonly issues: FieldIssue[];
  readonly digest?: string;

  constructor(
    code: AppErrorCode,
    options: { message?: string; issues?: FieldIssue[]; cause?: unknown } = {},
  ) {
    super(
      options.message ?? appErrorCatalog[code].message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "AppError";
    this.code = code;
    this.status = appErrorCatalog[code].status;
    this.issues = options.issues ?? [];
    if (code === "unavailable:database") this.digest = UNAVAILABLE_DIGEST;
  }
}

export function isAppError(value: unknown, code?: AppErrorCode): value is AppError {
  return value instanceof AppError && (code === undefined || value.code === code);
}

/** Seconds a refusal asks the client to wait before trying again (`Retry-After`), if it asks at all. */
export const RETRY_AFTER_SECONDS: Partial<Record<AppErrorCode, number>> = { "unavailable:database": 5 };

/** The headers a reply carrying `error` adds to its status: `Retry-After` on a 503. */
export function errorHeaders(error: Pick<PublicError, "code">): Record<string, string> {
  const seconds = RETRY_AFTER_SECONDS[error.code];
  return seconds === undefined ? {} : { "Retry-After": String(seconds) };
}

/** What a client may see of any thrown value: unknown errors collapse to a generic 500. */
export interface PublicError {
  code: AppErrorCode;
  status: number;
  message: string;
  issues: FieldIssue[];
}

export function toPublicError(value: unknown): PublicError {
  const error = isAppError(value) ? value : new AppError("internal:unexpected");
  return { code: error.code, status: error.status, message: error.message, issues: error.issues };
}

/**
 * What every server action returns and every component that called it reads: the value, or
 * the public side of the error that refused it.
 */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; error: PublicError };

/** The result of a call that never got an answer (the network failed), shown like any refusal. */
export function unsentResult(message: string): { ok: false; error: PublicError } {
  return { ok: false, error: { code: "internal:unexpected", status: 500, message, issues: [] } };
}
