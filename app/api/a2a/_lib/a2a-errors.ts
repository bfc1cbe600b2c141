import "server-only";
import { A2AError, RequestMalformedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { publicErrorOf } from "@/app/_lib/public-error";
import { reportUnexpected } from "@/app/_lib/report-unexpected";
import { isAppError } from "@/lib/errors";

// How the app's refusals reach an A2A client: as the protocol's errors, with the app's own
// message (and field issues, for an answer off its schema); anything unexpected as the app's
// public message, so no internal detail leaves.

export function toA2AError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  if (isAppError(error)) {
    const issues = error.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
    const message = issues ? `${error.message} (${issues})` : error.message;
    const metadata = { code: error.code, ...(issues ? { issues: JSON.stringify(error.issues) } : {}) };
    // A conflict (already answered, run stopped) is the task no longer taking this; the rest is bad input.
    return error.status === 409
      ? new UnsupportedOperationError({ message, metadata })
      : new RequestMalformedError({ message, metadata });
  }
  reportUnexpected("A2A call failed", error);
  const body = publicErrorOf(error);
  return new A2AError({ message: body.message, metadata: { code: body.code } });
}

/** The handler's methods, each refusing only with the protocol's errors. */
export function guarded<T extends object>(handler: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(handler)) {
    if (typeof method !== "function") continue;
    const isGenerator = method.constructor?.name === "AsyncGeneratorFunction";
    wrapped[name] = isGenerator
      ? async function* (...args: unknown[]) {
          try {
            yield* method.apply(handler, args);
          } catch (error) {
            throw toA2AError(error);
          }
        }
      : async (...args: unknown[]) => {
          try {
            return await method.apply(handler, args);
          } catch (error) {
            throw toA2AError(error);
          }
        };
  }
  return wrapped as T;
}
