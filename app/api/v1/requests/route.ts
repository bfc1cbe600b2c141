import { apiMethods } from "../_lib/api-methods";
import { createRequestRoute, listRequestsRoute } from "../_lib/api-routes";
import { defineApiRoute } from "../_lib/define-api-route";
import { createRequestCall, listRequestsCall } from "../_lib/request-calls";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiMethods(createRequestRoute.path, {
  POST: defineApiRoute(createRequestRoute, createRequestCall),
  GET: defineApiRoute(listRequestsRoute, listRequestsCall),
});
