import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { OAuthError } from "./oauth-error";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A short, non-secret fingerprint of the key. Stored with each ciphertext so that a key
 * rotation shows up as "encrypted with another key" rather than as tampering.
 */
export function keyId(key: Buffer): string {
  return createHash("sha256").update("toolnexus:key-id:").update(key).digest("base64url").slice(0, 8);
}

function assertKey(key: Buffer): void {
  if (key.length !== 32) throw new OAuthError("config:invalid", "The encryption key must be 32 bytes");
}

/**
 * AES-256-GCM with a random 96-bit IV. `context` is bound as associated data, so a ciphertext
 * copied into another user's or provider's row fails to decrypt instead of being accepted.
 * Format: `v1.<keyId>.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
export function encryptToken(plaintext: string, key: Buffer, context: string): string {
  assertKey(key);
  const kid = keyId(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(`${VERSION}.${kid}.${context}`, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, kid, iv.toString("base64url"), body.toString("base64url"), tag.toString("base64url")].join(
    ".",
  );
}

/**
 * Decrypts with whichever of `keys` the ciphertext names, so tokens sealed before a key
 * rotation stay readable while previous keys are still configured.
 */
export function decryptToken(sealed: string, keys: Buffer | readonly Buffer[], context: string): string {
  const candidates = Array.isArray(keys) ? keys : [keys as Buffer];
  for (const candidate of candidates) assertKey(candidate);
  const parts = sealed.split(".");
  if (parts.length !== 5 || parts[0] !== VERSION) {
    throw new OAuthError("token:malformed", "Stored token has an unknown format");
  }
  const [version, kid, ivText, bodyText, tagText] = parts as [string, string, string, string, string];
  const key = candidates.find((candidate) => keyId(candidate) === kid);
  if (!key) {
    throw new OAuthError("token:wrong_key", "Stored token was encrypted with a different key");
  }
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new OAuthError("token:malformed", "Stored token has an unknown format");
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(`${version}.${kid}.${context}`, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(bodyText, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch (error) {
    throw new OAuthError("token:tampered", "Stored token failed its integrity check", { cause: error });
  }
}
