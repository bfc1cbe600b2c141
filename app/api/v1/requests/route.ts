import { apiMethods } from "../_lib/api-methods";
import { createRequestRoute, listRequestsRoute } from "../_lib/api-routes";
import { defineApiRoute } from "../_lib/define-api-route";
import { createRequestCall, listRequestsCall } from "../_lib/request-calls";

export const dynamic = "force-dynamic";

const methods = apiMethods(createRequestRoute.path, {
  POST: defineApiRoute(createRequestRoute, createRequestCall),
  GET: defineApiRoute(listRequestsRoute, listRequestsCall),
});
export const GET = methods.GET;
export const POST = methods.POST;
export const PUT = methods.PUT;
export const PATCH = methods.PATCH;
export const DELETE = methods.DELETE;
export const OPTIONS = methods.OPTIONS;
