import { createHash, createHmac } from "node:crypto";
import { canonicalJson } from "../checkpoint-digest";
import type { Checkpoint } from "../types";

/** A checkpoint as releases before two-level digests made it (version 1). */
export type Version1Checkpoint = Omit<Checkpoint, "version" | "transcriptDigest"> & { version: 1 };

/**
 * `checkpoint` as an earlier release would have made it: `version: 1` and one digest,
 * SHA-256 (HMAC-SHA256 under `key`) of the canonical JSON of everything else, messages
 * included. Written with node's own hashes, not the library's, so it stands for what those
 * releases stored whatever the library does today.
 */
export function version1Of(checkpoint: Checkpoint, key?: string): Version1Checkpoint {
  const { digest: _digest, transcriptDigest: _transcript, version: _version, ...body } = checkpoint;
  const whole = { ...body, version: 1 as const };
  const text = canonicalJson(whole);
  const digest =
    key === undefined
      ? `sha256:${createHash("sha256").update(text).digest("hex")}`
      : `hmac-sha256:${createHmac("sha256", key).update(text).digest("hex")}`;
  return { ...whole, digest };
}
