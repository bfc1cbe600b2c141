import { z } from "zod";
import { OAuthError } from "./oauth-error";

export type ProviderEndpoints =
  | { kind: "discovery"; issuer: string }
  | {
      kind: "static";
      /** Used as the authorization server's identifier; defaults to the authorize URL's origin. */
      issuer: string;
      authorizationEndpoint: string;
      tokenEndpoint: string;
      revocationEndpoint?: string;
    };

export type TokenAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

export interface OAuthProviderConfig {
  name: string;
  label: string;
  endpoints: ProviderEndpoints;
  clientId: string;
  clientSecret?: string;
  tokenAuth: TokenAuthMethod;
  scopes: string[];
  /** Base URL of the provider's API that tools call with the stored token. */
  apiBase?: string;
  /** Plain HTTP is accepted only for loopback hosts (the demo provider, local tests). */
  allowInsecureRequests: boolean;
}

export type ProviderRegistry = ReadonlyMap<string, OAuthProviderConfig>;

export const DEMO_PROVIDER = "demo";
export const DEMO_CLIENT_ID = "toolnexus-demo";
export const DEMO_DEFAULT_ISSUER = "http://localhost:3001";
// The demo server is local and holds nothing of value; a fixed default keeps the quick start one command.
export const DEMO_DEFAULT_CLIENT_SECRET = "toolnexus-demo-secret";
export const DEMO_SCOPES = ["openid", "offline_access", "balance:read"];

type Env = Record<string, string | undefined>;

const PRESETS: Record<string, Partial<Omit<OAuthProviderConfig, "name" | "clientId">>> = {
  github: {
    label: "GitHub",
    endpoints: {
      kind: "static",
      issuer: "https://github.com",
      authorizationEndpoint: "https://github.com/login/oauth/authorize",
      tokenEndpoint: "https://github.com/login/oauth/access_token",
    },
    tokenAuth: "client_secret_post",
    scopes: ["read:user"],
    apiBase: "https://api.github.com",
  },
};

/** What a provider name may look like, in configuration and in URLs and forms alike. */
export const providerNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,30}$/, "provider names are lower-case letters, digits, -");
const urlSchema = z.url({ protocol: /^https?$/ });
const tokenAuthSchema = z.enum(["client_secret_basic", "client_secret_post", "none"]);

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

function parseScopes(text: string | undefined): string[] | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  return text.split(/[\s,]+/).filter(Boolean);
}

function envPrefix(name: string): string {
  return `OAUTH_${name.toUpperCase().replaceAll("-", "_")}_`;
}

function fail(message: string): never {
  throw new OAuthError("config:invalid", message);
}

function url(value: string | undefined, variable: string): string | undefined {
  if (value === undefined || value === "") return undefined;
  const parsed = urlSchema.safeParse(value);
  if (!parsed.success) fail(`${variable} must be an http(s) URL`);
  return parsed.data.replace(/\/$/, "");
}

function readProvider(name: string, env: Env): OAuthProviderConfig {
  const prefix = envPrefix(name);
  const get = (key: string) => env[`${prefix}${key}`];
  const preset = PRESETS[name] ?? {};
  const isDemo = name === DEMO_PROVIDER;

  const issuer = url(get("ISSUER") ?? (isDemo ? DEMO_DEFAULT_ISSUER : undefined), `${prefix}ISSUER`);
  const authorizationEndpoint = url(get("AUTHORIZATION_URL"), `${prefix}AUTHORIZATION_URL`);
  const tokenEndpoint = url(get("TOKEN_URL"), `${prefix}TOKEN_URL`);
  const revocationEndpoint = url(get("REVOCATION_URL"), `${prefix}REVOCATION_URL`);

  let endpoints: ProviderEndpoints;
  if (authorizationEndpoint || tokenEndpoint) {
    if (!authorizationEndpoint || !tokenEndpoint) {
      fail(`${prefix}AUTHORIZATION_URL and ${prefix}TOKEN_URL must be set together`);
    }
    endpoints = {
      kind: "static",
      issuer: issuer ?? new URL(authorizationEndpoint).origin,
      authorizationEndpoint,
      tokenEndpoint,
      ...(revocationEndpoint ? { revocationEndpoint } : {}),
    };
  } else if (issuer) {
    endpoints = { kind: "discovery", issuer };
  } else if (preset.endpoints) {
    endpoints = preset.endpoints;
  } else {
    fail(`Provider "${name}" needs ${prefix}ISSUER or ${prefix}AUTHORIZATION_URL and ${prefix}TOKEN_URL`);
  }

  const clientId = get("CLIENT_ID") ?? (isDemo ? DEMO_CLIENT_ID : undefined);
  if (!clientId) fail(`${prefix}CLIENT_ID is required`);
  const clientSecret = get("CLIENT_SECRET") || (isDemo ? DEMO_DEFAULT_CLIENT_SECRET : undefined);

  const tokenAuthText = get("TOKEN_AUTH");
  let tokenAuth: TokenAuthMethod = preset.tokenAuth ?? (clientSecret ? "client_secret_basic" : "none");
  if (tokenAuthText) {
    const parsed = tokenAuthSchema.safeParse(tokenAuthText);
    if (!parsed.success) fail(`${prefix}TOKEN_AUTH must be client_secret_basic, client_secret_post or none`);
    tokenAuth = parsed.data;
  }
  if (tokenAuth !== "none" && !clientSecret) fail(`${prefix}CLIENT_SECRET is required for ${tokenAuth}`);

  const apiBase =
    url(get("API_BASE"), `${prefix}API_BASE`) ?? preset.apiBase ?? (isDemo ? issuer : undefined);
  const urls = [
    endpoints.kind === "discovery" ? endpoints.issuer : endpoints.authorizationEndpoint,
    ...(endpoints.kind === "static" ? [endpoints.tokenEndpoint] : []),
    ...(apiBase ? [apiBase] : []),
  ];
  const insecure = urls.filter((u) => u.startsWith("http:"));
  if (insecure.some((u) => !isLoopback(u)))
    fail(`Provider "${name}" must use https (plain http only on localhost)`);

  return {
    name,
    label: get("LABEL") ?? preset.label ?? (isDemo ? "Demo Bank" : name),
    endpoints,
    clientId,
    ...(clientSecret ? { clientSecret } : {}),
    tokenAuth,
    scopes: parseScopes(get("SCOPES")) ?? preset.scopes ?? (isDemo ? DEMO_SCOPES : []),
    ...(apiBase ? { apiBase } : {}),
    allowInsecureRequests: insecure.length > 0,
  };
}

/**
 * Reads `OAUTH_PROVIDERS` (comma-separated names) and each provider's `OAUTH_<NAME>_*`
 * variables. In demo mode the local demo provider is always present.
 */
export function loadProviderRegistry(options: { env?: Env; demoMode: boolean }): ProviderRegistry {
  const env = options.env ?? process.env;
  const names = (env.OAUTH_PROVIDERS ?? "")
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  if (options.demoMode && !names.includes(DEMO_PROVIDER)) names.unshift(DEMO_PROVIDER);
  const registry = new Map<string, OAuthProviderConfig>();
  for (const name of names) {
    if (!providerNameSchema.safeParse(name).success)
      fail(`Invalid provider name "${name}" in OAUTH_PROVIDERS`);
    registry.set(name, readProvider(name, env));
  }
  return registry;
}

export function getProviderConfig(registry: ProviderRegistry, name: string): OAuthProviderConfig {
  const provider = registry.get(name);
  if (!provider) throw new OAuthError("provider:unknown", `No OAuth provider named "${name}" is configured`);
  return provider;
}

/** What the pending card shows: "Continue to <host>". */
export function providerHost(provider: OAuthProviderConfig): string {
  const endpoints = provider.endpoints;
  return new URL(endpoints.kind === "discovery" ? endpoints.issuer : endpoints.authorizationEndpoint).host;
}
