import "server-only";
import { headers } from "next/headers";

/** Set by the proxy on every request, and sent back on the response as X-Request-Id. */
export const REQUEST_ID_HEADER = "x-request-id";

/** The current request's id, inside a request (pages, actions, routes); undefined elsewhere. */
export async function currentRequestId(): Promise<string | undefined> {
  try {
    return (await headers()).get(REQUEST_ID_HEADER) ?? undefined;
  } catch {
    return undefined;
  }
}
