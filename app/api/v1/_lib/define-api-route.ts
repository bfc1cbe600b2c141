import "server-only";
import type { z } from "zod";
import { getAppServices } from "@/app/_lib/app-services";
import { publicErrorOf } from "@/app/_lib/public-error";
import { reportUnexpected } from "@/app/_lib/report-unexpected";
import { authenticateApiToken, countApiCall, ensureScope, type TokenCaller } from "@/lib/auth/api-token-auth";
import type { ApiTokenScope } from "@/lib/db/api-tokens";
import type { DbClient } from "@/lib/db/db-types";
import type { Engine } from "@/lib/engine/engine-types";
import { AppError, type AppErrorCode, errorHeaders, type FieldIssue } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request-body-check";

/** What the OpenAPI document says about one call; the route parses with the same schemas. */
export interface ApiRouteSpec<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
> {
  method: "GET" | "POST";
  /** In OpenAPI's form, e.g. /api/v1/requests/{id}. */
  path: string;
  operationId: string;
  summary: string;
  /** The token scope the call needs; null for a public call (the document itself). */
  scope: ApiTokenScope | null;
  params?: Params;
  query?: Query;
  body?: Body;
  headers?: { name: string; schema: z.ZodType; description: string }[];
  /**
   * Body fields refused with 422 and this code, not 400, when they are the only fault: the
   * audience is one such field, so a client handles every refusal of it (a malformed value, an
   * unknown group) the same way.
   */
  unprocessable?: { field: string; code: AppErrorCode };
  responses: Record<
    number,
    {
      description: string;
      schema?: z.ZodType;
      headers?: Record<string, string>;
      /** application/json unless said otherwise. */
      contentType?: "text/event-stream";
    }
  >;
}

export interface ApiServices {
  db: DbClient;
  engine: Engine;
  /** How often an event stream re-checks its token and writes a keep-alive; 15 s by default. */
  streamHeartbeatMs?: number;
}

export interface ApiCall<Params, Query, Body> {
  /** Null only for public calls. */
  caller: TokenCaller | null;
  params: Params;
  query: Query;
  body: Body;
  request: Request;
}

function describeIssues(where: string, issues: FieldIssue[]): string {
  const each = issues.map((issue) => `${issue.path === "/" ? where : issue.path.slice(1)} ${issue.message}`);
  return `The request is not valid: ${each.join("; ")}.`;
}

/**
 * Parses one part of the call, refusing it with a 400 that names each bad field, or with the
 * spec's 422 when every fault lies in its unprocessable field.
 */
function parsePart<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
  unprocessable?: ApiRouteSpec["unprocessable"],
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: `/${issue.path.map(String).join("/")}`,
    message: issue.message,
  }));
  const within = (path: string) =>
    unprocessable !== undefined &&
    (path === `/${unprocessable.field}` || path.startsWith(`/${unprocessable.field}/`));
  const code =
    issues.every((issue) => within(issue.path)) && unprocessable ? unprocessable.code : "bad_request:input";
  throw new AppError(code, { message: describeIssues(where, issues), issues });
}

/** A body is JSON by its Content-Type, not by a guess at its bytes (415 otherwise). */
function requireJsonContentType(request: Request): void {
  const mediaType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") throw new AppError("unsupported_media_type:body");
}

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** A refusal as the API answers it: the public error, never a stack or a query. */
export function apiErrorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  reportUnexpected("API call failed", error);
  const body = publicErrorOf(error);
  return json(body, body.status, { ...errorHeaders(body), ...headers });
}

export type ApiReply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; stream: ReadableStream<Uint8Array>; headers: Record<string, string> };

/**
 * One /api/v1 call against given services (what tests call): the token first (401), its scope
 * (403), its rate (429), then path, query, the body's type (415) and the body against the spec's
 * schemas (400), and only then the handler. Every refusal is the JSON error of the AppError that made it.
 */
export function serveApiRoute<Params extends z.ZodType, Query extends z.ZodType, Body extends z.ZodType>(
  spec: ApiRouteSpec<Params, Query, Body>,
  handler: (
    call: ApiCall<z.infer<Params>, z.infer<Query>, z.infer<Body>>,
    services: ApiServices,
  ) => Promise<ApiReply>,
) {
  return async (request: Request, context: { params: Promise<unknown> }, services: ApiServices) => {
    try {
      let caller: TokenCaller | null = null;
      if (spec.scope !== null) {
        caller = await authenticateApiToken({
          db: services.db,
          authorization: request.headers.get("authorization"),
        });
        ensureScope(caller, spec.scope);
        const rate = await countApiCall({ db: services.db, tokenId: caller.tokenId });
        if (rate.status === "throttled") {
          return apiErrorResponse(new AppError("rate_limited:token"), {
            "Retry-After": String(rate.retryAfterSeconds),
          });
        }
      }
      const url = new URL(request.url);
      const params = spec.params ? parsePart(spec.params, await context.params, "path") : undefined;
      const query = spec.query
        ? parsePart(spec.query, Object.fromEntries(url.searchParams), "query")
        : undefined;
      let body: unknown;
      if (spec.body) {
        requireJsonContentType(request);
        // Counted while read (413 past the limit) and parsed strictly (400), in lib/http.
        const read = await readJsonBody(request);
        if (read.status === "refused") return json(read.refusal, read.refusal.status);
        body = parsePart(spec.body, read.value, "body", spec.unprocessable);
      }
      const reply = await handler({ caller, params, query, body, request } as never, services);
      if ("stream" in reply)
        return new Response(reply.stream, { status: reply.status, headers: reply.headers });
      return json(reply.body, reply.status, reply.headers);
    } catch (error) {
      return apiErrorResponse(error);
    }
  };
}

/** `serveApiRoute` on the process's own services: what a route.ts exports. */
export function defineApiRoute<Params extends z.ZodType, Query extends z.ZodType, Body extends z.ZodType>(
  spec: ApiRouteSpec<Params, Query, Body>,
  handler: (
    call: ApiCall<z.infer<Params>, z.infer<Query>, z.infer<Body>>,
    services: ApiServices,
  ) => Promise<ApiReply>,
) {
  const serve = serveApiRoute(spec, handler);
  return async (request: Request, context: { params: Promise<unknown> }) => {
    try {
      return await serve(request, context, await getAppServices());
    } catch (error) {
      return apiErrorResponse(error);
    }
  };
}
