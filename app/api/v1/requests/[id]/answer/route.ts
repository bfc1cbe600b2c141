import { answerRequestCall } from "../../../_lib/answer-call";
import { apiMethods } from "../../../_lib/api-methods";
import { answerRequestRoute } from "../../../_lib/api-routes";
import { defineApiRoute } from "../../../_lib/define-api-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiMethods(answerRequestRoute.path, {
  POST: defineApiRoute(answerRequestRoute, answerRequestCall),
});
