import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { headers } from "next/headers";

/** Set by the proxy on every request, and sent back on the response as X-Request-Id. */
export const REQUEST_ID_HEADER = "x-request-id";

// Requests the production server answers beside Next (ADR 0041) have no Next request context
// to read the id from; they carry it here instead.
const outsideNext = new AsyncLocalStorage<string>();

/** Runs `serve` as the request `requestId`, for what it logs (a request Next does not serve). */
export function withRequestId<T>(requestId: string, serve: () => T): T {
  return outsideNext.run(requestId, serve);
}

/** The current request's id, inside a request (pages, actions, routes); undefined elsewhere. */
export async function currentRequestId(): Promise<string | undefined> {
  const direct = outsideNext.getStore();
  if (direct) return direct;
  try {
    return (await headers()).get(REQUEST_ID_HEADER) ?? undefined;
  } catch {
    return undefined;
  }
}
