import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// The Standard Webhooks signature: HMAC-SHA256, keyed with the base64 part of a `whsec_` secret,
// over "<webhook-id>.<webhook-timestamp>.<body>", sent as "v1,<base64>" in `webhook-signature`
// (space-separated when there are several). Receivers check it with any Standard Webhooks library.

const PREFIX = "whsec_";

/** A new signing secret: 24 random bytes, as the format writes them. */
export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString("base64")}`;
}

/** The Standard Webhooks secret an A2A push is signed with: its client's token as the key (ADR 0095). */
export function pushSigningSecret(token: string): string {
  return `${PREFIX}${Buffer.from(token, "utf8").toString("base64")}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error("A webhook secret starts with whsec_");
  return Buffer.from(secret.slice(PREFIX.length), "base64");
}

/** The `webhook-signature` value of one attempt (the timestamp is that attempt's, in seconds). */
export function signWebhook({
  secret,
  id,
  timestamp,
  body,
}: {
  secret: string;
  id: string;
  timestamp: number;
  body: string;
}): string {
  const mac = createHmac("sha256", keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/**
 * What a receiver does: true when one of the header's signatures matches and the timestamp is
 * within `toleranceSeconds` of `now` (an old, replayed request is refused).
 */
export function verifyWebhook({
  secret,
  headers,
  body,
  now = Date.now(),
  toleranceSeconds = 300,
}: {
  secret: string;
  headers: { id: string; timestamp: string; signature: string };
  body: string;
  now?: number;
  toleranceSeconds?: number;
}): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook({ secret, id: headers.id, timestamp, body }));
  return headers.signature.split(" ").some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
