import { isDatabaseUnavailable } from "@/lib/db/sql/database-unavailable";
import { isAppError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { currentRequestId } from "@/lib/log/request-id";

/** Logs what is not an AppError: those are refusals the user is told about, not faults. */
export function reportUnexpected(where: string, error: unknown): void {
  if (isAppError(error)) return;
  // The database briefly away is answered 503 and worth a line, not an error of the app's.
  const unavailable = isDatabaseUnavailable(error);
  void currentRequestId().then((requestId) =>
    unavailable
      ? logger.warn({ err: error, requestId }, `${where}: the database is unavailable`)
      : logger.error({ err: error, requestId }, where),
  );
}
