import type { SecretKeys } from "@/lib/oauth/secret-keys";
import { decryptionKeys } from "@/lib/oauth/secret-keys";
import { decryptToken, encryptToken } from "@/lib/oauth/token-crypto";

/** Associated data binding sealed headers to their server, so a copied ciphertext does not decrypt. */
function headersContext(serverName: string): string {
  return `mcp-server:${serverName}:headers`;
}

/** Seals a server's headers (API keys and the like) with the key OAuth tokens use; null when none. */
export function sealServerHeaders(
  serverName: string,
  headers: Record<string, string>,
  keys: Pick<SecretKeys, "encryption">,
): string | null {
  if (Object.keys(headers).length === 0) return null;
  return encryptToken(JSON.stringify(headers), keys.encryption, headersContext(serverName));
}

/** The headers to send to a server; throws an OAuthError when they cannot be read (another key, tampering). */
export function openServerHeaders(
  serverName: string,
  sealed: string | null,
  keys: SecretKeys,
): Record<string, string> {
  if (sealed === null) return {};
  const parsed: unknown = JSON.parse(decryptToken(sealed, decryptionKeys(keys), headersContext(serverName)));
  const headers: Record<string, string> = {};
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    for (const [name, value] of Object.entries(parsed)) if (typeof value === "string") headers[name] = value;
  }
  return headers;
}

function clientSecretContext(serverName: string): string {
  return `mcp-server:${serverName}:oauth-client-secret`;
}

/** Seals the client secret an admin entered for a server users sign in to. */
export function sealClientSecret(
  serverName: string,
  secret: string,
  keys: Pick<SecretKeys, "encryption">,
): string {
  return encryptToken(secret, keys.encryption, clientSecretContext(serverName));
}

export function openClientSecret(serverName: string, sealed: string, keys: SecretKeys): string {
  return decryptToken(sealed, decryptionKeys(keys), clientSecretContext(serverName));
}
