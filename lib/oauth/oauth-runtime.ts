import path from "node:path";
import { isDemoMode } from "@/lib/auth/demo-mode";
import { outboundPrivateAllowed } from "@/lib/http/outbound-address";
import { createOutboundFetch, type OutboundFetch } from "@/lib/http/outbound-fetch";
import { appBaseUrl } from "./app-url";
import { loadProviderRegistry, type ProviderRegistry } from "./provider-registry";
import { loadSecretKeys, type SecretKeys } from "./secret-keys";

/** Everything the OAuth flow reads from configuration, resolved once per process. */
export interface OAuthRuntime {
  registry: ProviderRegistry;
  keys: SecretKeys;
  appUrl: string;
  /**
   * How the server reaches MCP servers and the OAuth endpoints their metadata names: only
   * addresses the outbound policy allows (ADR 0056, TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE).
   */
  outboundFetch: OutboundFetch;
}

type Env = Record<string, string | undefined>;

export function loadOAuthRuntime(options: { env?: Env; dataDir?: string } = {}): OAuthRuntime {
  const env = options.env ?? process.env;
  const demoMode = isDemoMode(env);
  let keys: SecretKeys | undefined;
  return {
    registry: loadProviderRegistry({ env, demoMode }),
    appUrl: appBaseUrl(env),
    outboundFetch: createOutboundFetch({ allowPrivate: outboundPrivateAllowed(env) }),
    // Loaded on first use, so a deployment without tool sign-ins needs no encryption key just to
    // list (no) connected services.
    get keys() {
      keys ??= loadSecretKeys({ env, demoMode, dataDir: options.dataDir ?? path.resolve("data") });
      return keys;
    },
  };
}

type RuntimeGlobal = typeof globalThis & { __toolnexusOAuth?: OAuthRuntime };

export function getOAuthRuntime(): OAuthRuntime {
  const holder = globalThis as RuntimeGlobal;
  holder.__toolnexusOAuth ??= loadOAuthRuntime();
  return holder.__toolnexusOAuth;
}
