// Which X-Forwarded-* headers to believe. Plain JavaScript because the server entry (server.mjs)
// runs it before anything is compiled; the app imports the same module.
import { BlockList, isIP } from "node:net";

/**
 * The proxies whose X-Forwarded-* headers the app believes: `TOOLNEXUS_TRUSTED_PROXIES`, a
 * comma-separated list of addresses and CIDR ranges (`127.0.0.1, 10.0.0.0/8, ::1`). Empty by
 * default: then no forwarded header is believed at all.
 * @param {Record<string, string | undefined>} [env]
 * @returns {BlockList}
 */
export function parseTrustedProxies(env = process.env) {
  const list = new BlockList();
  for (const entry of (env.TOOLNEXUS_TRUSTED_PROXIES ?? "").split(",")) {
    const value = entry.trim();
    if (!value) continue;
    const [address, prefix] = value.split("/", 2);
    const family = isIP(address) === 6 ? "ipv6" : isIP(address) === 4 ? "ipv4" : null;
    if (!family) throw new Error(`TOOLNEXUS_TRUSTED_PROXIES: "${value}" is not an IP address or CIDR range`);
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** @param {string} address */
export function normaliseAddress(address) {
  const trimmed = address.trim();
  // IPv4 clients of a dual-stack socket show up as ::ffff:a.b.c.d.
  return trimmed.startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

/**
 * @param {string} address
 * @param {BlockList} trusted
 */
export function isTrustedProxy(address, trusted) {
  const value = normaliseAddress(address);
  const family = isIP(value);
  return family !== 0 && trusted.check(value, family === 6 ? "ipv6" : "ipv4");
}

const FORWARDED = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded"];

/**
 * Rewrites a request's forwarded headers by who sent it, before the framework reads them. From a
 * trusted proxy they are kept and the proxy's own address ends the X-Forwarded-For chain; from
 * anyone else they are dropped (the framework then derives host and protocol from the request
 * itself) and X-Forwarded-For becomes the socket's peer alone. Everything downstream (the
 * server-action origin check, sign-in URLs, the client address for throttling) then reads
 * headers it can believe.
 * @param {{ headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } }} req
 * @param {BlockList} trusted
 */
export function applyForwardedTrust(req, trusted) {
  const peer = normaliseAddress(req.socket.remoteAddress ?? "");
  const incoming = req.headers["x-forwarded-for"];
  const chain = Array.isArray(incoming) ? incoming.join(", ") : incoming;
  if (peer && isTrustedProxy(peer, trusted)) {
    req.headers["x-forwarded-for"] = chain ? `${chain}, ${peer}` : peer;
    return;
  }
  for (const name of FORWARDED) delete req.headers[name];
  if (peer) req.headers["x-forwarded-for"] = peer;
  else delete req.headers["x-forwarded-for"];
}
