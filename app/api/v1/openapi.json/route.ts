import { appBaseUrl } from "@/lib/oauth/app-url";
import { apiMethods } from "../_lib/api-methods";
import { openApiRoute } from "../_lib/api-routes";
import { defineApiRoute } from "../_lib/define-api-route";
import { buildOpenApiDocument } from "../_lib/openapi-document";

export const dynamic = "force-dynamic";

const methods = apiMethods(openApiRoute.path, {
  GET: defineApiRoute(openApiRoute, async () => ({ status: 200, body: buildOpenApiDocument(appBaseUrl()) })),
});
export const GET = methods.GET;
export const POST = methods.POST;
export const PUT = methods.PUT;
export const PATCH = methods.PATCH;
export const DELETE = methods.DELETE;
export const OPTIONS = methods.OPTIONS;
