import { apiMethods } from "../../../_lib/api-methods";
import { cancelRequestRoute } from "../../../_lib/api-routes";
import { defineApiRoute } from "../../../_lib/define-api-route";
import { cancelRequestCall } from "../../../_lib/request-calls";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiMethods(cancelRequestRoute.path, {
  POST: defineApiRoute(cancelRequestRoute, cancelRequestCall),
});
