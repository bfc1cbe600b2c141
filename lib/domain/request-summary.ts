// The one sentence a decision card leads with: what will happen if the request is approved,
// built from the request and its arguments. A tool states it once, as a template on its approval
// profile ("Deploy {service} {version} to {environment}"), and the gate stores the template on
// the request (`data.summary`), so every page reads the same words for it and a request made
// through the API may bring its own. Without a template the request's prompt is the sentence.

import type { RequestView } from "./request-view";

/** A piece of the sentence: words, or a value taken from the arguments (shown emphasised). */
export type SummaryPart = { text: string; value: boolean };

// `{key}` or `{key:usd}`; a key names a top-level argument.
const PLACEHOLDER = /\{([A-Za-z_][\w]*)(?::(usd))?\}/g;

function formatValue(value: unknown, format: string | undefined): string | null {
  if (format === "usd" && typeof value === "number" && Number.isFinite(value)) return `$${value.toFixed(2)}`;
  if (typeof value === "string") return value.trim() === "" ? null : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

/**
 * Fills `template` with `args`; null when a placeholder names an argument that is missing or is
 * not a plain value, since a sentence with a hole in it says less than the prompt does.
 */
export function fillSummary(template: string, args: Record<string, unknown>): SummaryPart[] | null {
  const parts: SummaryPart[] = [];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const value = formatValue(args[match[1]!], match[2]);
    if (value === null) return null;
    if (match.index > at) parts.push({ text: template.slice(at, match.index), value: false });
    parts.push({ text: value, value: true });
    at = match.index + match[0].length;
  }
  if (at < template.length) parts.push({ text: template.slice(at), value: false });
  return parts.length > 0 ? parts : null;
}

/**
 * The sentence for a request: its template filled with `args` (the asked arguments, or the
 * approved ones once a reviewer changed them), else its prompt as it was asked.
 */
export function summaryOf(
  request: { prompt: string; data?: Record<string, unknown> | undefined },
  args: Record<string, unknown>,
): { parts: SummaryPart[]; fromTemplate: boolean } {
  const template = request.data?.summary;
  const filled = typeof template === "string" ? fillSummary(template, args) : null;
  return filled
    ? { parts: filled, fromTemplate: true }
    : { parts: [{ text: request.prompt, value: false }], fromTemplate: false };
}

/** The sentence as plain text, for labels and mail. */
export function summaryText(parts: SummaryPart[]): string {
  return parts.map((part) => part.text).join("");
}

/** The arguments an approval was answered with, when its answer carries edited ones. */
export function approvedArguments(
  data: Record<string, unknown> | undefined,
  asked: Record<string, unknown>,
): Record<string, unknown> {
  const edited = data?.arguments;
  return typeof edited === "object" && edited !== null && !Array.isArray(edited)
    ? (edited as Record<string, unknown>)
    : asked;
}

/**
 * What a closed request did, in its tool's sentence with the arguments as approved; null when
 * that cannot be said truly: without a sentence of the tool's, or for an approval whose edited
 * arguments the page was not told (the chat learns only that it was approved).
 */
export function closedSentence(view: Extract<RequestView, { answer: unknown }>): SummaryPart[] | null {
  const { request, answer } = view;
  const editable = typeof request.data?.schema === "object" && request.data.schema !== null;
  if (answer.ok && editable && answer.data === undefined) return null;
  const args = answer.ok ? approvedArguments(answer.data, view.args) : view.args;
  const summary = summaryOf(request, args);
  return summary.fromTemplate ? summary.parts : null;
}
