// What one person's answer may weigh. Everything an answer carries is stored, shown to other
// people and read by the model, so it is bounded well below the transport limit. The forms say
// these limits next to their fields; the engine refuses anything beyond them.

/** A decline's reason, in characters (the approval card and the inbox's bulk decline). */
export const DECLINE_REASON_MAX_CHARS = 1_000;

/** An answer's data as stored (UTF-8 JSON), in bytes: forms, questions and JSON answers. */
export const ANSWER_DATA_MAX_BYTES = 16 * 1024;

export function answerDataBytes(data: unknown): number {
  return new TextEncoder().encode(JSON.stringify(data ?? {})).length;
}

export function formatKilobytes(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`;
}
