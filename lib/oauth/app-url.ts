type Env = Record<string, string | undefined>;

/**
 * The app's public origin. Callback URLs must match what each provider has registered, so
 * this comes from configuration rather than from request headers a proxy could rewrite.
 */
export function appBaseUrl(env: Env = process.env): string {
  const configured = env.TOOLNEXUS_APP_URL?.trim() || env.AUTH_URL?.trim();
  if (configured) return new URL(configured).origin;
  return `http://localhost:${env.PORT?.trim() || "3000"}`;
}

export function oauthCallbackUrl(baseUrl: string, provider: string): string {
  return `${baseUrl}/oauth/${encodeURIComponent(provider)}/callback`;
}

export function oauthStartUrl(baseUrl: string, provider: string, requestId: string): string {
  return `${baseUrl}/oauth/${encodeURIComponent(provider)}/start?request=${encodeURIComponent(requestId)}`;
}
