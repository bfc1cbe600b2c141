import { apiMethods } from "../../_lib/api-methods";
import { readRequestRoute } from "../../_lib/api-routes";
import { defineApiRoute } from "../../_lib/define-api-route";
import { readRequestCall } from "../../_lib/request-calls";

// A long poll holds the call open for up to a minute.
export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiMethods(readRequestRoute.path, {
  GET: defineApiRoute(readRequestRoute, readRequestCall),
});
