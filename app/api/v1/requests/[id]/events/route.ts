import { apiMethods } from "../../../_lib/api-methods";
import { requestEventsRoute } from "../../../_lib/api-routes";
import { defineApiRoute } from "../../../_lib/define-api-route";
import { requestEventsCall } from "../../../_lib/request-calls";

// Open for as long as the request is; never cache or prerender it.
export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiMethods(requestEventsRoute.path, {
  GET: defineApiRoute(requestEventsRoute, requestEventsCall),
});
