import ipaddr from "ipaddr.js";

// Where the server may connect when it fetches a URL that a person typed: a remote MCP server,
// the OAuth endpoints its metadata names, a webhook endpoint (ADR 0056). By default only globally
// routable unicast addresses, as ipaddr.js classifies them: loopback, private, link-local,
// carrier-grade NAT, documentation, benchmarking, multicast and reserved ranges are all refused,
// so an admin's URL cannot reach the services behind the app or the cloud's metadata endpoint.
// TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE=1 lifts the rule, for receivers and servers on this machine
// (a demo, the tests); the older TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE=1 does the same.

type Env = Record<string, string | undefined>;

/** The setting, and the older name that still works. */
export const OUTBOUND_ALLOW_PRIVATE = "TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE";
const OLD_WEBHOOKS_ALLOW_PRIVATE = "TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE";

export function outboundPrivateAllowed(env: Env = process.env): boolean {
  return env[OUTBOUND_ALLOW_PRIVATE] === "1" || env[OLD_WEBHOOKS_ALLOW_PRIVATE] === "1";
}

/** Which addresses a connection may use. */
export type AddressPolicy = (address: string) => boolean;

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 addresses an IPv6 address stands for, when it is one of the forms that carry one:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96), 6to4
 * (2002::/16) and Teredo (server and client). A translator or relay on the way would deliver
 * to that IPv4 address, so it is the one that must be allowed. `null`: a form whose embedded
 * address cannot be known (a NAT64 prefix other than the well-known one), refused outright.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null | undefined {
  const parts = address.parts;
  const range = address.range();
  if (range === "ipv4Mapped") return [address.toIPv4Address()];
  if (range === "rfc6052") {
    const wellKnown =
      parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((part) => part === 0);
    return wellKnown ? [v4FromParts(parts[6]!, parts[7]!)] : null;
  }
  if (range === "6to4") return [v4FromParts(parts[1]!, parts[2]!)];
  // The client's address is stored inverted (RFC 4380).
  if (range === "teredo")
    return [v4FromParts(parts[2]!, parts[3]!), v4FromParts(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff)];
  // ::a.b.c.d: ipaddr.js calls it plain unicast, yet stacks that still honour it send to a.b.c.d.
  if (range === "unicast" && parts.slice(0, 6).every((part) => part === 0)) {
    return [v4FromParts(parts[6]!, parts[7]!)];
  }
  return undefined;
}

/** True for a globally routable unicast address (IPv4 or IPv6, without brackets). */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.parse(text);
  if (address.kind() === "ipv4") return address.range() === "unicast";
  const embedded = embeddedIPv4(address as ipaddr.IPv6);
  if (embedded === null) return false;
  if (embedded) return embedded.every((v4) => v4.range() === "unicast");
  return address.range() === "unicast";
}

/** The default policy, or every address when private addresses are allowed. */
export function addressPolicy(allowPrivate: boolean): AddressPolicy {
  return allowPrivate ? () => true : isPublicAddress;
}

/** An IP literal as written in a URL's host, brackets removed; undefined for a name. */
export function ipLiteralOf(hostname: string): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.isValid(host) && (host.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(host))
    ? host
    : undefined;
}

/** Why a URL that a person typed cannot be fetched, or null when it can (names are checked again when they resolve). */
export function outboundUrlProblem(text: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter a full URL, starting with https:// or http://.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Only http and https URLs can be used.";
  if (url.username || url.password)
    return "Leave credentials out of the URL (put them in a header or the signature).";
  if (allowPrivate) return null;
  const host = url.hostname;
  const literal = ipLiteralOf(host);
  // A name is checked again on every connection, on the address it resolves to; these two are
  // refused here already because they can only ever mean this machine.
  const local = host === "localhost" || host.endsWith(".localhost");
  if (local || (literal !== undefined && !isPublicAddress(literal))) return ADDRESS_REFUSED_TEXT;
  return null;
}

export const ADDRESS_REFUSED_TEXT =
  "This address is on a private network or reserved; the app connects only to public addresses.";
