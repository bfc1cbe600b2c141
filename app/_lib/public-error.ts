import { asUnavailableError } from "@/lib/db/sql/database-unavailable";
import { type PublicError, toPublicError } from "@/lib/errors";

/**
 * What people are told of any error the app's pages' actions, routes, API calls and streams
 * caught: a database that is briefly away is `unavailable:database` (503, try again shortly),
 * never a sign-out or an internal error; the rest as `toPublicError` says.
 */
export function publicErrorOf(error: unknown): PublicError {
  return toPublicError(asUnavailableError(error));
}
