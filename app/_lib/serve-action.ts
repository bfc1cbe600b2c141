import "server-only";
import { requireUser } from "@/lib/auth/guards";
import type { ActionResult } from "@/lib/errors";
import { type AppServices, getAppServices } from "./app-services";
import type { DefinedAction } from "./define-action";
import { publicErrorOf } from "./public-error";
import { reportUnexpected } from "./report-unexpected";

type ServedAction<T> = (input: unknown) => Promise<ActionResult<T>>;

/**
 * Serves a defined action as a server action for the signed-in user, with the app's services
 * (or what `loadDeps` builds from them). Errors cross the wire as data, not throws: Next hides
 * a thrown error's message in production, and the user must see *why* something was refused.
 */
export function serveAction<T>(action: DefinedAction<T, AppServices>): ServedAction<T>;
export function serveAction<T, Deps>(
  action: DefinedAction<T, Deps>,
  loadDeps: () => Promise<Deps>,
): ServedAction<T>;
export function serveAction<T, Deps>(
  action: DefinedAction<T, Deps>,
  loadDeps?: () => Promise<Deps>,
): ServedAction<T> {
  // Without loadDeps the overload above has made Deps the app's services.
  const load = loadDeps ?? (getAppServices as () => Promise<Deps>);
  return async (input) => {
    try {
      const actor = await requireUser();
      return { ok: true, value: await action({ actor, input }, await load()) };
    } catch (error) {
      reportUnexpected("Server action failed", error);
      return { ok: false, error: publicErrorOf(error) };
    }
  };
}
