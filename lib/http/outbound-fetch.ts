import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { type AddressPolicy, addressPolicy, ipLiteralOf } from "./outbound-address";
import { OutboundAddressRefused } from "./outbound-failure";

/** `fetch` as the MCP SDK and oauth4webapi take it. */
export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Resolves names as usual and keeps only the addresses the policy allows, at the moment the
 * socket connects: checking a name first and connecting later would let a name that changes its
 * answer in between (DNS rebinding) reach an address that was never checked.
 */
function guardedLookup(permits: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const usable = (addresses as unknown as LookupAddress[]).filter((entry) => permits(entry.address));
      if (usable.length === 0) return callback(new OutboundAddressRefused(), "", 0);
      if (options.all) return callback(null, usable as unknown as string, 0);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/**
 * The one way the server connects to a URL that a person typed (ADR 0056). Every connection,
 * the first and each redirect's, goes through this connector: an IP literal is checked before
 * connecting (it skips the name lookup), a name on the addresses it resolves to. A refused
 * address gets no packet at all, so nothing about it (open, closed, filtered) can be learnt.
 */
export function createOutboundFetch(
  options: { allowPrivate: boolean } | { policy: AddressPolicy },
): OutboundFetch {
  const permits = "policy" in options ? options.policy : addressPolicy(options.allowPrivate);
  const connectVia = buildConnector({ lookup: guardedLookup(permits) });
  const dispatcher = new Agent({
    connect: (connectOptions, callback) => {
      const literal = ipLiteralOf(connectOptions.hostname);
      if (literal !== undefined && !permits(literal)) return callback(new OutboundAddressRefused(), null);
      connectVia(connectOptions, callback);
    },
  });
  // undici's own fetch: the global one may be wrapped by the framework, which need not pass a
  // dispatcher on. Its answer is handed back as a global Response, because the SDKs that call
  // this test `instanceof Response` (the MCP SDK reads OAuth errors only from one).
  return async (input, init) => {
    const answer = await undiciFetch(input, { ...(init as object), dispatcher } as UndiciInit);
    const response = new Response(
      NULL_BODY.has(answer.status) ? null : (answer.body as ReadableStream | null),
      {
        status: answer.status,
        statusText: answer.statusText,
        headers: [...answer.headers],
      },
    );
    Object.defineProperties(response, {
      url: { value: answer.url },
      redirected: { value: answer.redirected },
    });
    return response;
  };
}

type UndiciInit = Parameters<typeof undiciFetch>[1];
/** Statuses whose Response may not have a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
