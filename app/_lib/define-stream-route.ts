import "server-only";
import { requireUserAndSessionVersion, sessionWatchSignal } from "@/lib/auth/session-watch";
import { untilDraining } from "@/lib/http/server-draining.mjs";
import { getAppServices } from "./app-services";
import { errorResponse } from "./define-route";
import type { StreamRoute } from "./stream-routes";

/**
 * Opens a live stream for whoever `readSession` finds signed in (401 before the route runs when
 * nobody is), every error answered by `errorResponse`. The route's `signal` aborts when the
 * client leaves (`signal`), when the session it was opened with is revoked (signed out, signed
 * out everywhere), so a stream authorised once does not outlive its session by more than a
 * re-check interval, and when this server begins to shut down, so the client reconnects to a
 * peer at once. Both ways a stream is served, Next's route handler and server.mjs, come here.
 */
export async function openStreamRoute(
  route: StreamRoute,
  {
    readSession,
    url,
    params,
    signal,
  }: { readSession?: () => Promise<unknown>; url: URL; params: Record<string, string>; signal: AbortSignal },
): Promise<Response> {
  try {
    const { user: actor, sessionVersion } = await requireUserAndSessionVersion(readSession);
    const services = await getAppServices();
    const watched = sessionWatchSignal({
      db: services.db,
      userId: actor.id,
      sessionVersion,
      signal: untilDraining(signal),
    });
    return await route.open({ actor, url, params, signal: watched }, services);
  } catch (error) {
    return errorResponse(error);
  }
}

/** A stream route as a Next route handler (`next dev`, and production before the app started). */
export function defineStreamRoute(
  route: StreamRoute,
): (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> {
  return async (request, context) =>
    openStreamRoute(route, {
      url: new URL(request.url),
      params: await context.params,
      signal: request.signal,
    });
}
