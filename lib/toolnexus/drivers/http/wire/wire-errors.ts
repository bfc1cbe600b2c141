import type { z } from "zod";
import { ToolnexusError, type ToolnexusErrorCode } from "../../../errors";

const EXCERPT_CHARS = 500;

/** At most 500 characters of what the provider sent, for messages people can act on. */
export function excerptOf(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) : text;
}

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "unexpected shape";
  const path = issue.path.length > 0 ? issue.path.join(".") : "body";
  return `${path}: ${issue.message}`;
}

/**
 * Checks what a provider sent against the shape a wire format expects; a mismatch becomes a
 * typed error naming the first problem and quoting the start of `raw` (the text as received).
 */
export function parseWireShape<S extends z.ZodType>(
  schema: S,
  json: unknown,
  failure: { code: ToolnexusErrorCode; what: string; raw?: unknown },
): z.infer<S> {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const body = excerptOf(failure.raw ?? json);
  throw new ToolnexusError(failure.code, `Not ${failure.what} (${describeIssue(parsed.error)}): ${body}`, {
    body,
  });
}
