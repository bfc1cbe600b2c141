/**
 * A tool's result as people read it. A result that is a flat JSON object (a form's or a
 * question's answers: `{"Which environment?":"production"}`) reads as one "name: value" line
 * per field; anything else is already words, or too nested to say better, and stays as it is.
 */
export type ResultWords = { kind: "words"; text: string } | { kind: "fields"; lines: string[]; json: string };

export function resultWords(output: string): ResultWords {
  const parsed = parseObject(output);
  if (!parsed) return { kind: "words", text: output };
  const lines: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    const said = sayValue(value);
    if (said === undefined) return { kind: "words", text: output };
    lines.push(`${name}: ${said}`);
  }
  return lines.length > 0
    ? { kind: "fields", lines, json: JSON.stringify(parsed, null, 2) }
    : { kind: "words", text: output };
}

function parseObject(output: string): Record<string, unknown> | undefined {
  if (!output.trimStart().startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(output);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function sayValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return value.toLocaleString("en");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value === null) return "—";
  if (Array.isArray(value) && value.every((item) => typeof item !== "object" || item === null))
    return value.length === 0 ? "none" : value.map((item) => sayValue(item)).join(", ");
  return undefined;
}
