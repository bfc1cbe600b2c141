import { canonicalJson, digestOf, sameDigest } from "./checkpoint-digest";
import { malformed, readTranscriptText, refusingMalformed, tampered } from "./checkpoint-refusals";
import { type CheckpointBody, readCheckpointBody } from "./checkpoint-shape";

// The one place that knows version 1, the form releases before two-level digests made: one
// `digest`, SHA-256 (HMAC-SHA256 with a key) of the canonical JSON of everything else, the
// messages and `version: 1` included. Such checkpoints still exist: in the `checkpoint` column of
// runs parked by an earlier release, and in whatever a library user kept of a halted run. Each is
// verified here as it was made and handed back as a body, which the caller digests as a
// checkpoint of today's form; everything after that point knows one version only.

/**
 * The body of a version-1 checkpoint, verified against its digest under `key`; null for
 * anything else. A version-1 checkpoint whose transcript is handed over apart
 * (`loadTranscript`, as a host that keeps the transcript in rows of its own does) is read whole
 * first: its digest covers the messages, so nothing of it can be believed before.
 */
export async function readVersion1(value: unknown, key: string | undefined): Promise<CheckpointBody | null> {
  if (typeof value !== "object" || value === null || (value as { version?: unknown }).version !== 1)
    return null;
  const { digest, loadTranscript, ...rest } = value as Record<string, unknown>;
  if (typeof loadTranscript === "function") {
    const text: unknown = await loadTranscript();
    rest.messages = refusingMalformed(() => readTranscriptText(text));
  }
  const body = refusingMalformed(() => readCheckpointBody(rest, { copyMessages: true }));
  if (typeof digest !== "string") throw malformed("digest", "expected a string");
  // Over the value as it came, unknown keys included, as version 1 always was: an added key is
  // a change. A transcript that came as text is judged on its values, as its rows may not be
  // spelled canonically (stored as jsonb before PostgreSQL kept the text as written).
  if (!sameDigest(digest, digestOf(canonicalJson(rest), key))) throw tampered();
  return body;
}
