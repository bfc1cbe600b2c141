import type { StoredRequest } from "@/lib/db/requests";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import type { Request as InboxRequest } from "@/lib/toolnexus/types";

// What each tool asks the inbox, and what it returns of the answer. The approval's shape is the
// one the inbox already edits for the agent's own tool gate: `data.arguments` shown, `values`
// pre-filling an "Arguments" field, a note; the edited arguments come back as `data.arguments`.

const NOTE_MAX_LENGTH = 500;

type Json = Record<string, unknown>;

/** A form field for each argument as it is now, so the approver edits values, not JSON text. */
function fieldFor(value: unknown): Json {
  if (typeof value === "string") return { type: "string" };
  if (typeof value === "boolean") return { type: "boolean" };
  if (typeof value === "number") return { type: Number.isInteger(value) ? "integer" : "number" };
  return {};
}

export function argumentsSchema(args: Json): Json {
  const properties = Object.fromEntries(Object.entries(args).map(([key, value]) => [key, fieldFor(value)]));
  return { type: "object", title: "Arguments", properties, additionalProperties: true };
}

function expiresAt(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toISOString();
}

export function approvalRequest(input: {
  prompt: string;
  details?: string;
  tool?: string;
  args?: Json;
  expiresInSeconds: number;
  /** Offers "always allow <tool> for this token" (permission prompts only, ADR 0065). */
  offerAllowForToken?: boolean;
}): Omit<InboxRequest, "id"> {
  const properties: Json = {
    note: { type: "string", title: "Note (optional)", maxLength: NOTE_MAX_LENGTH },
  };
  if (input.args) properties.arguments = argumentsSchema(input.args);
  if (input.offerAllowForToken && input.tool) {
    properties.allowForToken = { type: "boolean", title: `Always allow ${input.tool} for this token` };
  }
  return {
    kind: "approval",
    prompt: input.prompt,
    data: {
      source: "mcp",
      ...(input.tool ? { tool: input.tool } : {}),
      ...(input.details ? { details: input.details } : {}),
      ...(input.args ? { arguments: input.args, values: { arguments: input.args } } : {}),
      // Nothing is required: approving from the inbox's list sends no data, and means "as asked".
      schema: { type: "object", properties },
    },
    expiresAt: expiresAt(input.expiresInSeconds),
  };
}

const ANSWER_FIELD = {
  type: "object",
  properties: { answer: { type: "string", title: "Answer" } },
  required: ["answer"],
};

export function questionRequest(input: { prompt: string; schema?: Json; expiresInSeconds: number }) {
  return {
    kind: "input",
    prompt: input.prompt,
    data: { source: "mcp", schema: input.schema ?? ANSWER_FIELD },
    expiresAt: expiresAt(input.expiresInSeconds),
  } satisfies Omit<InboxRequest, "id">;
}

/** What the agent's tool wanted, in one line: a shell command as it is, else the first telling field. */
function briefOf(input: Json): string {
  for (const key of ["command", "file_path", "path", "url", "pattern", "query"]) {
    const value = input[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return JSON.stringify(input);
}

export function permissionPrompt(toolName: string, input: Json): string {
  const brief = briefOf(input).replaceAll("`", "'");
  const shown = brief.length > 300 ? `${brief.slice(0, 300)}…` : brief;
  return `Claude Code wants to run ${toolName}: \`${shown}\``;
}

export type Outcome = "approved" | "answered" | "declined" | "expired" | "cancelled";

/** How a closed request ended; an open one never reaches here. */
export function outcomeOf(stored: StoredRequest): Outcome {
  if (stored.status === "expired" || stored.answer?.reason === "expired") return "expired";
  if (stored.status === "cancelled" || stored.answer?.reason === "cancelled") return "cancelled";
  if (!stored.answer?.ok) return "declined";
  return requestKindSpec(stored.request.kind).answeredAs;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether the approver ticked "always allow <tool> for this token" on an approval they gave. */
export function allowForTokenTicked(stored: StoredRequest): boolean {
  return outcomeOf(stored) === "approved" && stored.answer?.data?.allowForToken === true;
}

/** Claude Code's permission-prompt result: allow with the input as approved, or deny saying why. */
export function permissionDecision(stored: StoredRequest, input: Json, by: string | undefined): Json {
  const outcome = outcomeOf(stored);
  const data = stored.answer?.data;
  if (outcome === "approved") {
    return { behavior: "allow", updatedInput: isObject(data?.arguments) ? data.arguments : input };
  }
  const messages: Record<Exclude<Outcome, "approved" | "answered">, string> = {
    declined: text(data?.reason) ?? `Declined in the inbox${by ? ` by ${by}` : ""}.`,
    expired: "Nobody answered in the inbox before the request expired, so it is denied.",
    cancelled: "The request was cancelled before anyone answered, so it is denied.",
  };
  return { behavior: "deny", message: messages[outcome === "answered" ? "declined" : outcome] };
}

export function approvalResult(stored: StoredRequest, by: string | undefined) {
  const outcome = outcomeOf(stored);
  const data = stored.answer?.data;
  const note = text(outcome === "approved" ? data?.note : data?.reason);
  return {
    request_id: stored.id,
    status: outcome,
    approved: outcome === "approved",
    ...(note ? { note } : {}),
    ...(outcome === "approved" && isObject(data?.arguments) ? { arguments: data.arguments } : {}),
    ...(by ? { by } : {}),
  };
}

export function questionResult(stored: StoredRequest, by: string | undefined) {
  const outcome = outcomeOf(stored);
  const data = stored.answer?.data;
  return {
    request_id: stored.id,
    status: outcome,
    answered: outcome === "answered",
    ...(outcome === "answered" && data ? { data } : {}),
    ...(outcome === "declined" && text(data?.reason) ? { note: text(data?.reason) } : {}),
    ...(by ? { by } : {}),
  };
}
