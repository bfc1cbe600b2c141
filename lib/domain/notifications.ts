// How a person hears of new requests by email: each at once, in a digest, or not at all.

export const EMAIL_MODES = ["instant", "digest", "off"] as const;

export type EmailMode = (typeof EMAIL_MODES)[number];

/** Unknown or missing values mean the default: at once. */
export function parseEmailMode(value: unknown): EmailMode {
  return value === "digest" || value === "off" ? value : "instant";
}
