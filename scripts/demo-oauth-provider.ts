// Runs the local demo OAuth/OIDC provider ("Demo Bank") next to the app:
//   npx tsx scripts/demo-oauth-provider.ts
// The quick start and the end-to-end harness start it alongside `next start`.
import { appBaseUrl, oauthCallbackUrl } from "../lib/oauth/app-url";
import { startDemoProviderServer } from "../lib/oauth/demo-provider-server";
import { DEMO_DEFAULT_ISSUER, DEMO_PROVIDER } from "../lib/oauth/provider-registry";

const env = process.env;
const issuer = (env.OAUTH_DEMO_ISSUER?.trim() || DEMO_DEFAULT_ISSUER).replace(/\/$/, "");
const port = Number(env.OAUTH_DEMO_PORT || new URL(issuer).port || 3001);
const appCallback = oauthCallbackUrl(appBaseUrl(env), DEMO_PROVIDER);
const redirectUris = (env.OAUTH_DEMO_REDIRECT_URIS ?? "")
  .split(",")
  .map((u) => u.trim())
  .filter(Boolean);
if (redirectUris.length === 0) {
  // Browsers treat localhost and 127.0.0.1 as different sites; accept the app under either.
  redirectUris.push(appCallback, appCallback.replace("//localhost:", "//127.0.0.1:"));
}
const ttl = Number(env.OAUTH_DEMO_ACCESS_TOKEN_TTL || 600);

const running = await startDemoProviderServer({
  issuer,
  port,
  host: env.OAUTH_DEMO_HOST || "127.0.0.1",
  redirectUris: [...new Set(redirectUris)],
  ...(env.OAUTH_DEMO_CLIENT_SECRET ? { clientSecret: env.OAUTH_DEMO_CLIENT_SECRET } : {}),
  accessTokenTtl: ttl,
});
console.log(
  `Demo OAuth provider listening on ${issuer} (redirects to ${[...new Set(redirectUris)].join(", ")})`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
