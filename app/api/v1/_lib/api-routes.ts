import { z } from "zod";
import {
  answerRequestBody,
  apiRequestSchema,
  conflictSchema,
  createRequestBody,
  errorSchema,
  idempotencyKeySchema,
  listRequestsQuery,
  readRequestQuery,
  requestIdParams,
  requestListSchema,
} from "./api-schemas";
import type { ApiRouteSpec } from "./define-api-route";

// Every call of /api/v1, as the routes serve it and the OpenAPI document describes it. A route
// file takes its spec from here, so a call cannot exist without being in the document.

const refusals = {
  400: { description: "The call is not valid; `issues` names each field.", schema: errorSchema },
  401: { description: "No token, or one that is unknown, revoked or expired.", schema: errorSchema },
  403: { description: "The token lacks the scope this call needs.", schema: errorSchema },
  429: {
    description: "Too many calls with this token; wait for Retry-After seconds.",
    schema: errorSchema,
    headers: { "Retry-After": "Seconds to wait before calling again." },
  },
  500: {
    description: "A fault on the server's side; nothing about it is shown. Try again.",
    schema: errorSchema,
  },
  503: {
    description:
      "The service is briefly unavailable (its database is restarting); nothing was done. Call again after Retry-After seconds.",
    schema: errorSchema,
    headers: { "Retry-After": "Seconds to wait before calling again." },
  },
} as const;

/** What only a call that sends a body can be refused for. */
const bodyRefusals = {
  413: { description: "The body is larger than 1 MB.", schema: errorSchema },
  415: { description: "The body is not sent as Content-Type: application/json.", schema: errorSchema },
} as const;

export const createRequestRoute = {
  method: "POST",
  path: "/api/v1/requests",
  operationId: "createRequest",
  summary: "Ask a person: make a request that the inbox shows and someone answers.",
  scope: "requests:write",
  body: createRequestBody,
  unprocessable: { field: "audience", code: "invalid:audience" },
  headers: [
    {
      name: "Idempotency-Key",
      schema: idempotencyKeySchema,
      description: "Send one with every create: a retry with the same key returns the same request.",
    },
  ],
  responses: {
    201: { description: "Made.", schema: apiRequestSchema },
    200: {
      description: "An earlier create with this Idempotency-Key made it (Idempotent-Replayed: true).",
      schema: apiRequestSchema,
    },
    ...refusals,
    ...bodyRefusals,
    422: {
      description:
        "The Idempotency-Key was used with another body, or another audience once the default is applied; or the audience names a group that does not exist, has fewer members besides the asker than `required`, is given for a request that is not an approval, or is malformed when nothing else is (`issues` names /audience/group, /audience/required, /audience or the field inside it).",
      schema: errorSchema,
    },
  },
} satisfies ApiRouteSpec;

export const listRequestsRoute = {
  method: "GET",
  path: "/api/v1/requests",
  operationId: "listRequests",
  summary: "The requests this token's owner made through the API, newest first.",
  scope: "requests:read",
  query: listRequestsQuery,
  responses: { 200: { description: "One page.", schema: requestListSchema }, ...refusals },
} satisfies ApiRouteSpec;

export const readRequestRoute = {
  method: "GET",
  path: "/api/v1/requests/{id}",
  operationId: "readRequest",
  summary: "One request and, once answered, its answer; with `wait`, after it is answered or the wait ends.",
  scope: "requests:read",
  params: requestIdParams,
  query: readRequestQuery,
  responses: {
    200: { description: "The request as it stands.", schema: apiRequestSchema },
    ...refusals,
    404: { description: "No such request of this token's owner.", schema: errorSchema },
  },
} satisfies ApiRouteSpec;

export const requestEventsRoute = {
  method: "GET",
  path: "/api/v1/requests/{id}/events",
  operationId: "requestEvents",
  summary:
    "Server-sent events: an `event: request` with the request now, and again when it leaves open; then the stream ends.",
  scope: "requests:read",
  params: requestIdParams,
  responses: {
    200: {
      description:
        "An event stream. Each `event: request` carries the request as `data` (the ApiRequest JSON); comments keep the connection alive; it ends once the request is no longer open, or after 10 minutes (connect again).",
      contentType: "text/event-stream",
      schema: z.string(),
    },
    ...refusals,
    404: { description: "No such request of this token's owner.", schema: errorSchema },
  },
} satisfies ApiRouteSpec;

export const cancelRequestRoute = {
  method: "POST",
  path: "/api/v1/requests/{id}/cancel",
  operationId: "cancelRequest",
  summary: "Withdraw an open request: it is answered { ok: false, reason: cancelled }.",
  scope: "requests:write",
  params: requestIdParams,
  responses: {
    200: { description: "Cancelled.", schema: apiRequestSchema },
    ...refusals,
    404: { description: "No such request of this token's owner.", schema: errorSchema },
    409: { description: "Already answered or cancelled.", schema: errorSchema },
    413: bodyRefusals[413],
    410: { description: "Already expired.", schema: errorSchema },
  },
} satisfies ApiRouteSpec;

export const answerRequestRoute = {
  method: "POST",
  path: "/api/v1/requests/{id}/answer",
  operationId: "answerRequest",
  summary:
    "Answer a request, or vote on one addressed to your approver group, as the token's owner: the inbox's rules.",
  scope: "requests:answer",
  params: requestIdParams,
  body: answerRequestBody,
  responses: {
    200: {
      description:
        "Recorded: the request as it now stands (still open while a group's votes are short of `required`).",
      schema: apiRequestSchema,
    },
    ...refusals,
    ...bodyRefusals,
    403: {
      description:
        "The token lacks requests:answer, or its owner may not answer this request (the asker of a group's request never votes: four eyes).",
      schema: errorSchema,
    },
    404: { description: "No such request that this token's owner may see.", schema: errorSchema },
    409: {
      description:
        "Closed already, or a second vote by the same person, or a vote that came after the request was settled (kept, as too late); `request` is the outcome so far.",
      schema: conflictSchema,
    },
    410: { description: "Expired.", schema: errorSchema },
    422: { description: "`data` does not satisfy the request's `data.schema`.", schema: errorSchema },
  },
} satisfies ApiRouteSpec;

export const openApiRoute = {
  method: "GET",
  path: "/api/v1/openapi.json",
  operationId: "openApiDocument",
  summary: "This document.",
  scope: null,
  responses: {
    200: { description: "The OpenAPI 3.1 document.", schema: z.record(z.string(), z.unknown()) },
    500: refusals[500],
  },
} satisfies ApiRouteSpec;

export const apiRoutes: ApiRouteSpec[] = [
  createRequestRoute,
  listRequestsRoute,
  readRequestRoute,
  requestEventsRoute,
  cancelRequestRoute,
  answerRequestRoute,
  openApiRoute,
];
