import { BlockList, isIP } from "node:net";

// Where webhooks may go (ADR 0036). Only http and https, never with credentials in the URL, and
// by default never to a loopback, private, link-local or otherwise internal address: an admin's
// endpoint must not become a way to reach services behind the app. The check runs on the address
// the connection actually uses (see post-webhook.ts), so a name that resolves inward is refused
// too. TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE=1 lifts the address rule, for a demo or a test receiver on
// this machine, and the admin page says when it is lifted.

const internal = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  internal.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  internal.addSubnet(net, prefix, "ipv6");
}

/** True for an address no webhook may reach unless private addresses are allowed. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, "ipv4");
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return internal.check(mapped[1]!, "ipv4");
    return internal.check(address, "ipv6");
  }
  return true;
}

export function privateAddressesAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return env.TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE === "1";
}

/** Why a URL cannot be an endpoint, or null when it can (names are checked again when they resolve). */
export function webhookUrlProblem(text: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter a full URL, starting with https:// or http://.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return "Only http and https URLs can receive webhooks.";
  if (url.username || url.password)
    return "Leave credentials out of the URL; the signature authenticates deliveries.";
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || (isIP(host) !== 0 && isInternalAddress(host))) {
    return "This address is on a private network; this app sends webhooks only to public addresses.";
  }
  return null;
}
