import { type HttpRefusal, refusal } from "./refusal";

type Env = Record<string, string | undefined>;

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Cross-site request forgery check for server actions, before Next's own. The Origin a browser
 * sends must be the app's: its configured URL (TOOLNEXUS_APP_URL or AUTH_URL) or the Host the
 * request was sent to. X-Forwarded-Host counts only when proxies are configured
 * (TOOLNEXUS_TRUSTED_PROXIES, with the server entry dropping the header from anyone else):
 * otherwise any client could name the evil origin's host there and pass.
 */
export function checkActionOrigin(request: Request, env: Env = process.env): HttpRefusal | null {
  if (request.method !== "POST" || !request.headers.has("next-action")) return null;
  const origin = request.headers.get("origin");
  const originHost = origin ? hostOf(origin) : null;
  if (!originHost) return refusal("forbidden:origin");

  const allowed = new Set<string>();
  const configured = env.TOOLNEXUS_APP_URL?.trim() || env.AUTH_URL?.trim();
  const configuredHost = configured ? hostOf(configured) : null;
  if (configuredHost) allowed.add(configuredHost);
  const host = request.headers.get("host");
  if (host) allowed.add(host.toLowerCase());
  const forwarded = request.headers.get("x-forwarded-host");
  if (forwarded && env.TOOLNEXUS_TRUSTED_PROXIES?.trim())
    allowed.add(forwarded.split(",")[0]!.trim().toLowerCase());
  return allowed.has(originHost) ? null : refusal("forbidden:origin");
}
