import { AppError } from "@/lib/errors";
import { apiRoutes } from "./api-routes";
import { apiErrorResponse } from "./define-api-route";

// A path of /api/v1 answers every method: the ones the route table lists with their handlers,
// OPTIONS with the list, and the rest with the API's JSON 405 and an Allow header. (Next's own
// 405 has no body and no Allow.)

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

const REFUSALS = new WeakSet<Handler>();

/** True for a handler that only refuses its method: it is no call of the document. */
export function refusesMethod(handler: unknown): boolean {
  return typeof handler === "function" && REFUSALS.has(handler as Handler);
}

/** The methods a path takes, as an Allow header lists them. */
export function allowedMethods(path: string): string {
  const methods = apiRoutes.filter((route) => route.path === path).map((route) => route.method as string);
  if (methods.length === 0) throw new Error(`${path} is not in the route table`);
  if (methods.includes("GET")) methods.push("HEAD");
  return [...methods, "OPTIONS"].sort().join(", ");
}

/** Every method's handler of one path: the served ones as given, the others refused. */
export function apiMethods(path: string, served: { GET?: Handler; POST?: Handler }) {
  const allow = allowedMethods(path);
  const refuse: Handler = async () =>
    apiErrorResponse(new AppError("method_not_allowed:route"), { Allow: allow });
  REFUSALS.add(refuse);
  const options: Handler = async () => new Response(null, { status: 204, headers: { Allow: allow } });
  return {
    GET: served.GET ?? refuse,
    POST: served.POST ?? refuse,
    PUT: refuse,
    PATCH: refuse,
    DELETE: refuse,
    OPTIONS: options,
  };
}
