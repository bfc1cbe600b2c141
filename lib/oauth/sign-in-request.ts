import { createHash, randomUUID } from "node:crypto";
import { pending, type ToolResult } from "toolnexus";
import { oauthStartUrl } from "./app-url";
import { type OAuthProviderConfig, providerHost } from "./provider-registry";

/**
 * The id of a sign-in request. Derived from the call's idempotency key so a run taken over
 * after a crash parks the same request again; long enough that the start link's lookup by id
 * never meets another user's request.
 */
export function signInRequestId(idempotencyKey: string | undefined, provider: string): string {
  const seed = idempotencyKey ?? randomUUID();
  return `auth-${createHash("sha256").update(`${provider}\u0000${seed}`).digest("hex").slice(0, 24)}`;
}

/**
 * What a tool returns when it needs the user's access to `provider`: an `authorization`
 * request whose link is the app's own start route. Neither the link nor the data carry a
 * secret, so both may be shown to the model.
 */
export function signInRequest(options: {
  appUrl: string;
  provider: OAuthProviderConfig;
  prompt: string;
  idempotencyKey?: string;
  expiresAt?: string;
}): ToolResult {
  const { provider } = options;
  const id = signInRequestId(options.idempotencyKey, provider.name);
  return pending({
    kind: "authorization",
    id,
    prompt: options.prompt,
    url: oauthStartUrl(options.appUrl, provider.name, id),
    data: {
      provider: provider.name,
      providerLabel: provider.label,
      host: providerHost(provider),
      scopes: provider.scopes,
    },
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  });
}
