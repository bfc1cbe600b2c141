import { createRequestRoute, listRequestsRoute } from "../_lib/api-routes";
import { defineApiRoute } from "../_lib/define-api-route";
import { createRequestCall, listRequestsCall } from "../_lib/request-calls";

export const dynamic = "force-dynamic";

export const POST = defineApiRoute(createRequestRoute, createRequestCall);
export const GET = defineApiRoute(listRequestsRoute, listRequestsCall);
