import { isAppError } from "@/lib/errors";

/** Test helper: the AppError code a promise rejects with, or a description of what it did instead. */
export async function appErrorCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (error === null) return "resolved";
  return isAppError(error) ? error.code : `not an AppError: ${String(error)}`;
}
