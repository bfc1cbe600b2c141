import { ToolnexusError } from "../../errors";
import { retryAfterMs } from "../with-retries";

const BODY_EXCERPT_LENGTH = 500;

/**
 * Maps whatever an AI SDK model threw onto the library's error codes. Only the shape of the
 * AI SDK's errors is inspected (never their classes), so the library does not load `ai` at runtime.
 */
export function fromAiSdkError(error: unknown, signal?: AbortSignal): ToolnexusError {
  if (error instanceof ToolnexusError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isNamed(error, "TimeoutError") || (signal?.aborted && isNamed(signal.reason, "TimeoutError"))) {
    return new ToolnexusError("timeout", `The model call timed out: ${message}`, { cause: error });
  }
  if (signal?.aborted || isNamed(error, "AbortError") || isNamed(error, "ResponseAborted")) {
    return new ToolnexusError("aborted", `The model call was aborted: ${message}`, { cause: error });
  }
  const status = numberField(error, "statusCode") ?? numberField(error, "status");
  if (status !== undefined) {
    const body = stringField(error, "responseBody");
    const options: { status: number; body?: string; retryAfterMs?: number; cause: unknown } = {
      status,
      cause: error,
    };
    if (body !== undefined) options.body = body.slice(0, BODY_EXCERPT_LENGTH);
    const retryAfter = retryAfterMs(headerField(error, "retry-after"));
    if (retryAfter !== undefined) options.retryAfterMs = retryAfter;
    return new ToolnexusError("provider:http", `The provider answered HTTP ${status}: ${message}`, options);
  }
  // The AI SDK reports an unreachable endpoint as a retryable API call error that has no status.
  if (isNamed(error, "AI_APICallError") && (error as { isRetryable?: unknown }).isRetryable === true) {
    return new ToolnexusError("provider:network", `The provider could not be reached: ${message}`, {
      cause: error,
    });
  }
  return new ToolnexusError("provider:malformed_response", `The model failed: ${message}`, { cause: error });
}

function isNamed(error: unknown, name: string): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === name;
}

function numberField(value: unknown, key: string): number | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "number" && Number.isInteger(field) ? field : undefined;
}

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" ? field : undefined;
}

/** A response header of an API call error; the AI SDK keeps them lower-cased in `responseHeaders`. */
function headerField(error: unknown, name: string): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const headers = (error as { responseHeaders?: unknown }).responseHeaders;
  if (typeof headers !== "object" || headers === null) return undefined;
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}
