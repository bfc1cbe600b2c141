export type JsonObjectParse = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** Parses the free-form answer box of an unknown request kind; the answer's data must be an object. */
export function parseJsonObject(text: string): JsonObjectParse {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: 'The answer must be a JSON object, like {"key": "value"}.' };
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}
