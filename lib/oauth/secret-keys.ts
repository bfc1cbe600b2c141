import { hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OAuthError } from "./oauth-error";

export interface SecretKeys {
  /** AES-256-GCM key for tokens at rest; everything new is sealed with it. */
  encryption: Buffer;
  /** Keys from before a rotation (`TOOLNEXUS_ENCRYPTION_KEY_PREVIOUS`), for reading only. */
  previousEncryption?: Buffer[];
  /** HMAC-SHA-256 key for `state` values. */
  state: Buffer;
}

export interface LoadSecretKeysOptions {
  env?: Record<string, string | undefined>;
  /** Where a demo key is persisted when none is configured. */
  dataDir?: string;
  /** Only the demo may invent a key; a real deployment must configure one. */
  demoMode: boolean;
}

function decodeKey(text: string, variable = "TOOLNEXUS_ENCRYPTION_KEY"): Buffer {
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== 32) {
    throw new OAuthError("config:invalid", `${variable} must be 32 bytes, base64-encoded`);
  }
  return key;
}

/** Every key a sealed value may have been encrypted with, current first. */
export function decryptionKeys(keys: SecretKeys): Buffer[] {
  return [keys.encryption, ...(keys.previousEncryption ?? [])];
}

function readOrCreateDemoKey(dataDir: string): Buffer {
  const file = path.join(dataDir, "encryption.key");
  try {
    return decodeKey(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    // "wx" so two processes starting together cannot each write a different key.
    writeFileSync(file, `${key.toString("base64")}\n`, { flag: "wx", mode: 0o600 });
    chmodSync(file, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return decodeKey(readFileSync(file, "utf8"));
  }
}

/**
 * The state key is its own secret when `TOOLNEXUS_SECRET_KEY` is set; otherwise it is derived
 * from the encryption key with HKDF so that one configured secret is enough.
 */
export function loadSecretKeys(options: LoadSecretKeysOptions): SecretKeys {
  const env = options.env ?? process.env;
  const configured = env.TOOLNEXUS_ENCRYPTION_KEY;
  let encryption: Buffer;
  if (configured) encryption = decodeKey(configured);
  else if (options.demoMode) encryption = readOrCreateDemoKey(options.dataDir ?? path.resolve("data"));
  else throw new OAuthError("config:invalid", "TOOLNEXUS_ENCRYPTION_KEY is required outside demo mode");

  const stateSecret = env.TOOLNEXUS_SECRET_KEY;
  const state = stateSecret
    ? Buffer.from(hkdfSync("sha256", stateSecret, "toolnexus", "oauth-state", 32))
    : Buffer.from(hkdfSync("sha256", encryption, "toolnexus", "oauth-state-derived", 32));
  const previousEncryption = (env.TOOLNEXUS_ENCRYPTION_KEY_PREVIOUS ?? "")
    .split(",")
    .filter((text) => text.trim() !== "")
    .map((text) => decodeKey(text, "TOOLNEXUS_ENCRYPTION_KEY_PREVIOUS"));
  return { encryption, previousEncryption, state };
}
