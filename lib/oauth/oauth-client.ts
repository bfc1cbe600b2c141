import * as oauth from "oauth4webapi";
import { OAuthError } from "./oauth-error";
import type { OAuthProviderConfig } from "./provider-registry";

/** Tokens as this app keeps them; never handed to tools' output or the model. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Absent when the provider does not say (GitHub's classic tokens do not expire). */
  expiresAt?: Date;
  scopes: string[];
}

export interface PkcePair {
  codeVerifier: string;
  codeChallenge: string;
}

const discovered = new Map<string, Promise<oauth.AuthorizationServer>>();

function httpOptions(provider: OAuthProviderConfig) {
  return { [oauth.allowInsecureRequests]: provider.allowInsecureRequests };
}

async function discover(provider: OAuthProviderConfig, issuer: string): Promise<oauth.AuthorizationServer> {
  const issuerUrl = new URL(issuer);
  const response = await oauth.discoveryRequest(issuerUrl, { ...httpOptions(provider), algorithm: "oidc" });
  return oauth.processDiscoveryResponse(issuerUrl, response);
}

export async function getAuthorizationServer(
  provider: OAuthProviderConfig,
): Promise<oauth.AuthorizationServer> {
  const endpoints = provider.endpoints;
  if (endpoints.kind === "static") {
    return {
      issuer: endpoints.issuer,
      authorization_endpoint: endpoints.authorizationEndpoint,
      token_endpoint: endpoints.tokenEndpoint,
      ...(endpoints.revocationEndpoint ? { revocation_endpoint: endpoints.revocationEndpoint } : {}),
    };
  }
  let metadata = discovered.get(endpoints.issuer);
  if (!metadata) {
    metadata = discover(provider, endpoints.issuer);
    discovered.set(endpoints.issuer, metadata);
    // A failed discovery must not poison the cache: the provider may just have been starting.
    metadata.catch(() => discovered.delete(endpoints.issuer));
  }
  try {
    return await metadata;
  } catch (error) {
    throw new OAuthError("provider:error", `Could not reach ${provider.label}`, {
      cause: error,
    });
  }
}

function clientAuth(provider: OAuthProviderConfig): oauth.ClientAuth {
  if (provider.tokenAuth === "none") return oauth.None();
  const secret = provider.clientSecret ?? "";
  return provider.tokenAuth === "client_secret_post"
    ? oauth.ClientSecretPost(secret)
    : oauth.ClientSecretBasic(secret);
}

export async function createPkcePair(): Promise<PkcePair> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  return { codeVerifier, codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier) };
}

export async function buildAuthorizationUrl(options: {
  provider: OAuthProviderConfig;
  redirectUri: string;
  state: string;
  codeChallenge: string;
}): Promise<URL> {
  const as = await getAuthorizationServer(options.provider);
  if (!as.authorization_endpoint) {
    throw new OAuthError("config:invalid", `${options.provider.label} has no authorization endpoint`);
  }
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("client_id", options.provider.clientId);
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("response_type", "code");
  if (options.provider.scopes.length > 0) url.searchParams.set("scope", options.provider.scopes.join(" "));
  url.searchParams.set("state", options.state);
  url.searchParams.set("code_challenge", options.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url;
}

function toTokenSet(
  response: oauth.TokenEndpointResponse,
  requested: string[],
  previousRefresh?: string,
): TokenSet {
  const refreshToken = response.refresh_token ?? previousRefresh;
  return {
    accessToken: response.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(typeof response.expires_in === "number"
      ? { expiresAt: new Date(Date.now() + response.expires_in * 1000) }
      : {}),
    scopes: typeof response.scope === "string" ? response.scope.split(/[\s,]+/).filter(Boolean) : requested,
  };
}

/**
 * Validates the callback parameters against the expected `state` (and the `iss` parameter when
 * the provider sends one) and redeems the code with the PKCE verifier.
 */
export async function exchangeAuthorizationCode(options: {
  provider: OAuthProviderConfig;
  callbackParams: URLSearchParams;
  expectedState: string;
  redirectUri: string;
  codeVerifier: string;
}): Promise<TokenSet> {
  const { provider } = options;
  const as = await getAuthorizationServer(provider);
  const client: oauth.Client = { client_id: provider.clientId };
  try {
    const params = oauth.validateAuthResponse(as, client, options.callbackParams, options.expectedState);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth(provider),
      params,
      options.redirectUri,
      options.codeVerifier,
      httpOptions(provider),
    );
    return toTokenSet(await oauth.processAuthorizationCodeResponse(as, client, response), provider.scopes);
  } catch (error) {
    throw new OAuthError("exchange:failed", `${provider.label} did not accept the sign-in`, { cause: error });
  }
}

export async function refreshTokenSet(options: {
  provider: OAuthProviderConfig;
  refreshToken: string;
}): Promise<TokenSet> {
  const { provider } = options;
  const as = await getAuthorizationServer(provider);
  const client: oauth.Client = { client_id: provider.clientId };
  try {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      client,
      clientAuth(provider),
      options.refreshToken,
      httpOptions(provider),
    );
    const result = await oauth.processRefreshTokenResponse(as, client, response);
    return toTokenSet(result, provider.scopes, options.refreshToken);
  } catch (error) {
    // Only an answer from the provider says the grant is gone; a network failure says nothing.
    if (!(error instanceof oauth.ResponseBodyError)) {
      throw new OAuthError("provider:error", `Could not reach ${provider.label} to refresh the token`, {
        cause: error,
      });
    }
    throw new OAuthError("exchange:failed", `${provider.label} refused to refresh the token`, {
      cause: error,
    });
  }
}

/** Best effort: returns false when the provider has no revocation endpoint. */
export async function revokeToken(options: {
  provider: OAuthProviderConfig;
  token: string;
}): Promise<boolean> {
  const { provider } = options;
  const as = await getAuthorizationServer(provider);
  if (!as.revocation_endpoint) return false;
  const client: oauth.Client = { client_id: provider.clientId };
  const response = await oauth.revocationRequest(
    as,
    client,
    clientAuth(provider),
    options.token,
    httpOptions(provider),
  );
  await oauth.processRevocationResponse(response);
  return true;
}

export type ApiCallResult =
  | { status: "ok"; body: unknown }
  | { status: "unauthorized" }
  | { status: "failed"; httpStatus: number };

/** Calls the provider's API with a bearer token; a 401 means the token is no longer good. */
export async function callProviderApi(options: {
  provider: OAuthProviderConfig;
  accessToken: string;
  path: string;
}): Promise<ApiCallResult> {
  const { provider } = options;
  if (!provider.apiBase)
    throw new OAuthError("config:invalid", `${provider.label} has no API base configured`);
  const url = new URL(options.path, `${provider.apiBase}/`);
  let response: Response;
  try {
    response = await oauth.protectedResourceRequest(
      options.accessToken,
      "GET",
      url,
      new Headers({ accept: "application/json" }),
      null,
      httpOptions(provider),
    );
  } catch (error) {
    if (error instanceof oauth.WWWAuthenticateChallengeError && error.status === 401)
      return { status: "unauthorized" };
    throw error;
  }
  if (response.status === 401) return { status: "unauthorized" };
  if (!response.ok) return { status: "failed", httpStatus: response.status };
  return { status: "ok", body: await response.json() };
}
