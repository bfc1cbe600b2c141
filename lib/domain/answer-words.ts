// An answer as people read it: one line per field, labelled as its form labelled it, with values
// in words, so an answered card echoes what was entered without showing JSON.

export interface AnswerLine {
  label: string;
  text: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "orderId" → "Order id": a key with no title still reads as words. */
function wordsOfKey(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A value as people read it: Yes/No, numbers with separators, lists joined, no JSON. */
export function wordsOfValue(value: unknown): string {
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number") return value.toLocaleString("en");
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(wordsOfValue).join(", ");
  if (value === null || value === undefined) return "—";
  return Object.entries(value as Record<string, unknown>)
    .map(([key, inner]) => `${wordsOfKey(key)}: ${wordsOfValue(inner)}`)
    .join("; ");
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  return isObject(schema) && isObject(schema.properties) ? schema.properties : {};
}

/**
 * The lines of `data` in the order `schema` lists its fields (then any others), each labelled by
 * the field's title. A nested object (an approval's `arguments`) is opened in place rather than
 * shown as one line. Empty values and an unticked "always allow" say nothing and are left out.
 */
export function answerLines(data: Record<string, unknown>, schema?: unknown): AnswerLine[] {
  const properties = propertiesOf(schema);
  const keys = [...new Set([...Object.keys(properties), ...Object.keys(data)])].filter((key) =>
    Object.hasOwn(data, key),
  );
  const lines: AnswerLine[] = [];
  for (const key of keys) {
    const value = data[key];
    if (value === undefined || value === null || value === "" || value === false) continue;
    const field = properties[key];
    if (isObject(value)) {
      lines.push(...answerLines(value, field));
      continue;
    }
    const title = isObject(field) && typeof field.title === "string" ? field.title : wordsOfKey(key);
    lines.push({ label: title.replace(/\s*\(optional\)$/i, ""), text: wordsOfValue(value) });
  }
  return lines;
}

/**
 * The label of one field named by its path in the answer (`arguments.version`): the title the
 * form gave it, else its own key in words ("Version"), never the path.
 */
export function fieldLabel(path: string, schema?: unknown): string {
  const keys = path.split(".");
  let field: unknown = schema;
  for (const key of keys) field = propertiesOf(field)[key];
  const title = isObject(field) && typeof field.title === "string" ? field.title : undefined;
  return (title ?? wordsOfKey(keys.at(-1) ?? path)).replace(/\s*\(optional\)$/i, "");
}

/**
 * Who answered, in words: "Sam", or "Sam for Rita" when Sam covered for Rita while she was away
 * (ADR 0098). `forWhom` absent: they answered in their own right.
 */
export function answeredByWords(actor: string, forWhom?: string | null): string {
  return forWhom ? `${actor} for ${forWhom}` : actor;
}
