import { appBaseUrl } from "@/lib/oauth/app-url";
import { apiMethods } from "../_lib/api-methods";
import { openApiRoute } from "../_lib/api-routes";
import { defineApiRoute } from "../_lib/define-api-route";
import { buildOpenApiDocument } from "../_lib/openapi-document";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiMethods(openApiRoute.path, {
  GET: defineApiRoute(openApiRoute, async () => ({ status: 200, body: buildOpenApiDocument(appBaseUrl()) })),
});
