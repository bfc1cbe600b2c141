import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isInternalAddress } from "./webhook-address";

export type PostOutcome = { statusCode: number } | { statusCode: null; error: string };

/**
 * Resolves names as usual but refuses an internal address, at the moment the socket connects:
 * checking the name first and connecting later would let a name that changes its answer
 * in between (DNS rebinding) reach an address that was never checked.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as LookupAddress[];
      const usable = allowPrivate ? list : list.filter((entry) => !isInternalAddress(entry.address));
      if (usable.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves to a private address`), {
          code: "EADDRNOTALLOWED",
        });
        return callback(refused, "", 0);
      }
      if (options.all) return callback(null, usable as unknown as string, 0);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/**
 * One POST of a webhook body. Redirects are not followed (a 3xx is a failed attempt: following
 * one would send the signed body somewhere the admin never registered), the response body is
 * read only to free the socket, and an attempt gives up after `timeoutMs`.
 */
export function postWebhook({
  url,
  headers,
  body,
  allowPrivate,
  timeoutMs,
}: {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
  timeoutMs: number;
}): Promise<PostOutcome> {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return Promise.resolve({ statusCode: null, error: "Only http and https URLs can receive webhooks." });
  }
  if (!allowPrivate && isLiteralInternal(target.hostname)) {
    return Promise.resolve({ statusCode: null, error: `${target.hostname} is a private address` });
  }
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const request = send(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body).toString() },
        lookup: guardedLookup(allowPrivate),
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ statusCode: response.statusCode ?? 0 }));
        response.on("error", () => resolve({ statusCode: response.statusCode ?? 0 }));
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no response within ${timeoutMs} ms`)));
    request.on("error", (error) => resolve({ statusCode: null, error: error.message }));
    request.end(body);
  });
}

/** An IP literal never goes through the lookup, so it is checked here. */
function isLiteralInternal(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return isIP(host) !== 0 && isInternalAddress(host);
}
