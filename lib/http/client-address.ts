import { BlockList, isIP } from "node:net";

type Env = Record<string, string | undefined>;

/**
 * The proxies whose X-Forwarded-* headers the app believes: `TOOLNEXUS_TRUSTED_PROXIES`, a comma
 * separated list of addresses and CIDR ranges (`127.0.0.1, 10.0.0.0/8, ::1`). Empty by default:
 * then no forwarded header from a client is believed at all.
 */
export function parseTrustedProxies(env: Env = process.env): BlockList {
  const list = new BlockList();
  for (const entry of (env.TOOLNEXUS_TRUSTED_PROXIES ?? "").split(",")) {
    const value = entry.trim();
    if (!value) continue;
    const [address, prefix] = value.split("/", 2) as [string, string | undefined];
    const family = isIP(address) === 6 ? "ipv6" : isIP(address) === 4 ? "ipv4" : null;
    if (!family) throw new Error(`TOOLNEXUS_TRUSTED_PROXIES: "${value}" is not an IP address or CIDR range`);
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

function normalise(address: string): string {
  const trimmed = address.trim();
  // IPv4 clients of a dual-stack socket show up as ::ffff:a.b.c.d.
  return trimmed.startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

export function isTrustedProxy(address: string, trusted: BlockList): boolean {
  const value = normalise(address);
  const family = isIP(value);
  return family !== 0 && trusted.check(value, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address from an X-Forwarded-For chain that ends with the socket peer (the server
 * entry makes sure it does; see server.mjs). Read from the right: every hop that is a trusted
 * proxy is skipped, and the first one that is not is the client. Anything to its left was
 * written by the client itself and proves nothing.
 */
export function clientAddressFrom(forwardedFor: string | null, trusted: BlockList): string {
  const hops = (forwardedFor ?? "")
    .split(",")
    .map(normalise)
    .filter((hop) => hop !== "");
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index]!;
    if (!isTrustedProxy(hop, trusted)) return hop;
  }
  return hops[0] ?? "unknown";
}
