import "server-only";
import type { SessionUser } from "@/lib/auth/session-user";
import { requireUserAndSessionVersion, sessionWatchSignal } from "@/lib/auth/session-watch";
import { untilDraining } from "@/lib/http/server-draining.mjs";
import { type AppServices, getAppServices } from "./app-services";
import { errorResponse } from "./define-route";

/**
 * `defineRoute` for a live stream. Its `signal` aborts when the browser leaves and also when
 * the session the stream was opened with is revoked (signed out, signed out everywhere), so a
 * stream authorised once does not outlive its session by more than a re-check interval. It also
 * aborts when this server begins to shut down, so the browser reconnects to a peer at once.
 */
export function defineStreamRoute<Context>(
  handler: (
    call: { actor: SessionUser; request: Request; context: Context; signal: AbortSignal },
    services: AppServices,
  ) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    try {
      const { user: actor, sessionVersion } = await requireUserAndSessionVersion();
      const services = await getAppServices();
      const signal = sessionWatchSignal({
        db: services.db,
        userId: actor.id,
        sessionVersion,
        signal: untilDraining(request.signal),
      });
      return await handler({ actor, request, context, signal }, services);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
