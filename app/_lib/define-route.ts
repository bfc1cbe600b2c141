import "server-only";
import { requireUser } from "@/lib/auth/guards";
import type { SessionUser } from "@/lib/auth/session-user";
import { errorHeaders } from "@/lib/errors";
import { type AppServices, getAppServices } from "./app-services";
import { publicErrorOf } from "./public-error";
import { reportUnexpected } from "./report-unexpected";

/** A refusal or failure as a route answers it: the public error as JSON, with its status (and `Retry-After` on a 503). */
export function errorResponse(error: unknown): Response {
  reportUnexpected("Route handler failed", error);
  const body = publicErrorOf(error);
  return Response.json(body, { status: body.status, headers: errorHeaders(body) });
}

/**
 * A route handler for the signed-in user: 401 before the handler runs when nobody is, and
 * every error it throws answered by `errorResponse`. Role and ownership are the handler's to
 * check against what the request points at.
 */
export function defineRoute<Context>(
  handler: (
    call: { actor: SessionUser; request: Request; context: Context },
    services: AppServices,
  ) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    try {
      const actor = await requireUser();
      return await handler({ actor, request, context }, await getAppServices());
    } catch (error) {
      return errorResponse(error);
    }
  };
}
