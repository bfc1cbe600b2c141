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
