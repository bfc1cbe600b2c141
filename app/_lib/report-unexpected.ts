import { isAppError } from "@/lib/errors";

/** Logs what is not an AppError: those are refusals the user is told about, not faults. */
export function reportUnexpected(where: string, error: unknown): void {
  if (!isAppError(error)) console.error(where, error);
}
