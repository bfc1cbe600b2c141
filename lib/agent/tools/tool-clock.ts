import { createHash } from "node:crypto";

/** Injected into the demo tools so tests can pin "now" and check `expiresAt` exactly. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const HOUR_MS = 60 * 60 * 1000;

export function expiresIn(clock: Clock, ms: number): string {
  return new Date(clock().getTime() + ms).toISOString();
}

/**
 * A short reference derived from the call's idempotency key, so a tool re-run after a restart
 * reports the same deployment or booking instead of inventing a second one.
 */
export function stableReference(prefix: string, ...parts: Array<string | undefined>): string {
  const digest = createHash("sha256")
    .update(parts.map((p) => p ?? "").join("\u0000"))
    .digest("hex");
  return `${prefix}-${digest.slice(0, 8).toUpperCase()}`;
}
