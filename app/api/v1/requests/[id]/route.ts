import { apiMethods } from "../../_lib/api-methods";
import { readRequestRoute } from "../../_lib/api-routes";
import { defineApiRoute } from "../../_lib/define-api-route";
import { readRequestCall } from "../../_lib/request-calls";

// A long poll holds the call open for up to a minute.
export const dynamic = "force-dynamic";

const methods = apiMethods(readRequestRoute.path, { GET: defineApiRoute(readRequestRoute, readRequestCall) });
export const GET = methods.GET;
export const POST = methods.POST;
export const PUT = methods.PUT;
export const PATCH = methods.PATCH;
export const DELETE = methods.DELETE;
export const OPTIONS = methods.OPTIONS;
