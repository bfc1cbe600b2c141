import { type PublicError, toPublicError } from "@/lib/errors";

/**
 * What every server action returns. Errors cross the wire as data, not throws: Next hides a
 * thrown error's message in production, and the user must see *why* an answer was refused.
 */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; error: PublicError };

export async function toActionResult<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (!(error instanceof Error && error.name === "AppError")) {
      console.error("Server action failed", error);
    }
    return { ok: false, error: toPublicError(error) };
  }
}
