import { describeOutboundFailure } from "@/lib/http/outbound-failure";
import type { OutboundFetch } from "@/lib/http/outbound-fetch";

export type PostOutcome = { statusCode: number } | { statusCode: null; error: string };

/**
 * One POST of a webhook body through the outbound fetch, which connects only to addresses the
 * outbound policy allows (ADR 0056). Redirects are not followed (a 3xx is a failed attempt:
 * following one would send the signed body somewhere the admin never registered), the response
 * body is never read, and an attempt gives up after `timeoutMs`. A failure is described by its
 * class only (lib/http/outbound-failure.ts): the admin pages show it.
 */
export async function postWebhook({
  fetch,
  url,
  headers,
  body,
  timeoutMs,
}: {
  fetch: OutboundFetch;
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}): Promise<PostOutcome> {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return { statusCode: null, error: "Only http and https URLs can receive webhooks." };
  }
  try {
    const response = await fetch(target, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => {});
    return { statusCode: response.status };
  } catch (error) {
    return { statusCode: null, error: describeOutboundFailure(error) };
  }
}
