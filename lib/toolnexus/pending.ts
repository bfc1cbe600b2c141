import type { Request, RunResult, ToolResult } from "./types";

// One counter for the whole process, so two suspensions created in the same millisecond
// still get distinct ids.
let requestCounter = 0;

/** `pnd-<Date.now() in base 36>-<n>`, n counting from 1 for the life of the process. */
export function nextRequestId(): string {
  requestCounter += 1;
  return `pnd-${Date.now().toString(36)}-${requestCounter}`;
}

const REQUEST_KEYS = new Set(["kind", "prompt", "url", "data", "expiresAt"]);

export type PendingInput = Omit<Request, "id"> & { id?: string };

/** Builds the suspension shape: an error-flagged ToolResult carrying a Request. */
export function pending(input: PendingInput): ToolResult {
  // The caller's keys in the caller's order, a generated id last, as the reference port writes
  // them; absent optionals stay absent on the wire (never undefined or null keys).
  const request = {} as Record<string, unknown>;
  const id = input.id ?? nextRequestId();
  for (const key of Object.keys(input) as (keyof PendingInput)[]) {
    if (key === "id") request.id = id;
    else if (input[key] !== undefined && REQUEST_KEYS.has(key)) request[key] = input[key];
  }
  request.id = id;
  const { prompt, url } = request as unknown as Request;
  const output = url === undefined ? prompt : `${prompt}\n${url}`;
  return { output, isError: true, metadata: { pending: request as unknown as Request } };
}

/** The login-shaped suspension: the human acts at `url`, secrets never reach the model. */
export function authRequired(url: string, prompt = "Authorization required to continue"): ToolResult {
  return pending({ kind: "authorization", prompt, url });
}

function isRequest(value: unknown): value is Request {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.id === "string" &&
    typeof candidate.kind === "string" &&
    typeof candidate.prompt === "string"
  );
}

/** The Request parking a ToolResult (or a halted RunResult), else undefined. */
export function pendingOf(value: ToolResult | RunResult | null | undefined): Request | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if ("status" in value) return value.status === "pending" ? value.pending : undefined;
  const carried = value.metadata?.pending;
  return isRequest(carried) ? carried : undefined;
}
