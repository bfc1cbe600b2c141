import { apiMethods } from "../../../_lib/api-methods";
import { requestEventsRoute } from "../../../_lib/api-routes";
import { defineApiRoute } from "../../../_lib/define-api-route";
import { requestEventsCall } from "../../../_lib/request-calls";

// Open for as long as the request is; never cache or prerender it.
export const dynamic = "force-dynamic";

const methods = apiMethods(requestEventsRoute.path, {
  GET: defineApiRoute(requestEventsRoute, requestEventsCall),
});
export const GET = methods.GET;
export const POST = methods.POST;
export const PUT = methods.PUT;
export const PATCH = methods.PATCH;
export const DELETE = methods.DELETE;
export const OPTIONS = methods.OPTIONS;
