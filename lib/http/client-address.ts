import type { BlockList } from "node:net";
import { isTrustedProxy, normaliseAddress } from "./forwarded-trust.mjs";

export { parseTrustedProxies } from "./forwarded-trust.mjs";

/**
 * The client's address from an X-Forwarded-For chain that ends with the socket's peer (the
 * server entry, server.mjs, makes sure of that). Read from the right: every hop that is a
 * trusted proxy is skipped, and the first that is not is the client. Anything to its left was
 * written by the client itself and proves nothing.
 */
export function clientAddressFrom(forwardedFor: string | null, trusted: BlockList): string {
  const hops = (forwardedFor ?? "")
    .split(",")
    .map(normaliseAddress)
    .filter((hop) => hop !== "");
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index]!;
    if (!isTrustedProxy(hop, trusted)) return hop;
  }
  return hops[0] ?? "unknown";
}
