import { decryptionKeys, type SecretKeys } from "@/lib/oauth/secret-keys";
import { decryptToken, encryptToken } from "@/lib/oauth/token-crypto";

/** Associated data binding a sealed secret to its endpoint, so a copied ciphertext does not open. */
function secretContext(endpointId: string): string {
  return `webhook:${endpointId}:secret`;
}

/** Seals an endpoint's signing secret with the key OAuth tokens use. */
export function sealWebhookSecret(
  endpointId: string,
  secret: string,
  keys: Pick<SecretKeys, "encryption">,
): string {
  return encryptToken(secret, keys.encryption, secretContext(endpointId));
}

/** The signing secret, for the worker only; throws when it cannot be read (another key, tampering). */
export function openWebhookSecret(endpointId: string, sealed: string, keys: SecretKeys): string {
  return decryptToken(sealed, decryptionKeys(keys), secretContext(endpointId));
}

function pushTokenContext(configRowId: string): string {
  return `a2a-push:${configRowId}:token`;
}

/** Seals an A2A push config's token (ADR 0095), bound to its row. */
export function sealPushToken(
  configRowId: string,
  token: string,
  keys: Pick<SecretKeys, "encryption">,
): string {
  return encryptToken(token, keys.encryption, pushTokenContext(configRowId));
}

/** The push config's token, for the worker only. */
export function openPushToken(configRowId: string, sealed: string, keys: SecretKeys): string {
  return decryptToken(sealed, decryptionKeys(keys), pushTokenContext(configRowId));
}
