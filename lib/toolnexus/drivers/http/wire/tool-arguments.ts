import type { ToolCall } from "../../../types";

/**
 * The model's argument text as the loop wants it: a plain object, or `{}` plus the raw text
 * in `invalidArgs` so the loop can tell the model its arguments were unusable.
 */
export function toolArguments(raw: string): Pick<ToolCall, "args" | "invalidArgs"> {
  if (raw.trim() === "") return { args: {} };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isPlainObject(parsed)) return { args: parsed };
  } catch {
    // fall through: unparseable text is reported the same way as a non-object
  }
  return { args: {}, invalidArgs: raw };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
