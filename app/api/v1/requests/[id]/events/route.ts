import { requestEventsRoute } from "../../../_lib/api-routes";
import { defineApiRoute } from "../../../_lib/define-api-route";
import { requestEventsCall } from "../../../_lib/request-calls";

// Open for as long as the request is; never cache or prerender it.
export const dynamic = "force-dynamic";

export const GET = defineApiRoute(requestEventsRoute, requestEventsCall);
