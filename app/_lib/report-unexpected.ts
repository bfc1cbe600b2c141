import { isAppError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { currentRequestId } from "@/lib/log/request-id";

/** Logs what is not an AppError: those are refusals the user is told about, not faults. */
export function reportUnexpected(where: string, error: unknown): void {
  if (isAppError(error)) return;
  void currentRequestId().then((requestId) => logger.error({ err: error, requestId }, where));
}
