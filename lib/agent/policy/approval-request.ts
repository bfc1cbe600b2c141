import { type Answer, type Context, type JsonSchema, pending, type Tool, type ToolResult } from "toolnexus";
import type { EscalationStep } from "@/lib/domain/escalation";
import type { ApprovalProfile } from "./approval-profile";

export type AskingPolicy = "owner" | "reviewer" | "group";

const ASKING_POLICIES: readonly AskingPolicy[] = ["owner", "reviewer", "group"];

/**
 * Who the gate asks: the chat's owner, any reviewer, or `required` members of a group; a rule's
 * escalation ladder goes with the last two, and the request keeps it (ADR 0093).
 */
export type Asking =
  | { policy: "owner" }
  | { policy: "reviewer"; escalation?: EscalationStep[] }
  | { policy: "group"; group: string; required: number; escalation?: EscalationStep[] };

export const NOTE_MAX_LENGTH = 500;

/**
 * The gate's own request id for one call. It names the policy the call was asked under, and
 * the loop only accepts an answer whose id matches a parked request, so on the retry the id
 * alone says that this answer is the gate's (not the tool's own question) and under which policy.
 */
export function approvalIdFor(policy: AskingPolicy, ctx: Context | undefined): string {
  return `approval-${policy}-${ctx?.idempotencyKey ?? "call"}`;
}

/** Both ids the gate may have asked one call's approval under. */
export function approvalIdsFor(ctx: Context | undefined): string[] {
  return ASKING_POLICIES.map((policy) => approvalIdFor(policy, ctx));
}

/** Which policy a retry's answer approved the call under, or undefined if it is not the gate's. */
export function approvedUnder(ctx: Context | undefined): AskingPolicy | undefined {
  const id = ctx?.answer?.id;
  if (id === undefined) return undefined;
  for (const policy of ASKING_POLICIES) if (id === approvalIdFor(policy, ctx)) return policy;
  return undefined;
}

function defaultPrompt(tool: Tool, args: Record<string, unknown>): string {
  const shown = JSON.stringify(args);
  const brief = shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
  return `Approve running ${tool.annotations?.title ?? tool.name} with ${brief}?`;
}

/** How the request says who answers it; the engine stores it from these keys (`groupAddressFor`). */
function audienceData(asking: Asking): Record<string, unknown> {
  const ladder =
    asking.policy !== "owner" && asking.escalation?.length ? { escalation: asking.escalation } : {};
  if (asking.policy === "group")
    return { audience: "group", audienceGroup: asking.group, required: asking.required, ...ladder };
  return { audience: asking.policy === "owner" ? "owner" : "reviewers", ...ladder };
}

/** The approval the gate parks a call on: the tool, its arguments to edit, a note, and (for the owner) "always allow". */
export function approvalRequest(input: {
  tool: Tool;
  args: Record<string, unknown>;
  ctx: Context | undefined;
  asking: Asking;
  profile: ApprovalProfile | undefined;
  offerAllowInThread: boolean;
  expiresAt: string;
}): ToolResult {
  const { tool, args, ctx, asking, profile } = input;
  const editable: JsonSchema = profile?.editableSchema?.(args, tool.inputSchema) ?? tool.inputSchema;
  const properties: Record<string, unknown> = {
    arguments: { ...editable, title: "Arguments" },
    note: { type: "string", title: "Note (optional)", maxLength: NOTE_MAX_LENGTH },
  };
  if (input.offerAllowInThread) {
    properties.allowInThread = { type: "boolean", title: `Always allow ${tool.name} in this chat` };
  }
  return pending({
    id: approvalIdFor(asking.policy, ctx),
    kind: "approval",
    prompt: profile?.prompt?.(args) ?? defaultPrompt(tool, args),
    data: {
      tool: tool.name,
      source: tool.source,
      ...(profile?.summary ? { summary: profile.summary } : {}),
      ...audienceData(asking),
      arguments: args,
      values: { arguments: args },
      schema: { type: "object", properties, required: ["arguments"], additionalProperties: false },
    },
    expiresAt: input.expiresAt,
  });
}

export interface ApprovedCall {
  args: Record<string, unknown>;
  note?: string;
  allowInThread: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What the approver agreed to. The answer was checked against the request's schema when it was given. */
export function readApproval(answer: Answer, original: Record<string, unknown>): ApprovedCall {
  const data = answer.data ?? {};
  const note = typeof data.note === "string" ? data.note.trim() : "";
  return {
    args: isObject(data.arguments) ? data.arguments : original,
    ...(note ? { note } : {}),
    allowInThread: data.allowInThread === true,
  };
}

/** Tells the model what the approver changed and said, after the tool's own output. */
export function describeApproval(
  policy: AskingPolicy,
  original: Record<string, unknown>,
  approved: ApprovedCall,
): string {
  const who = policy === "reviewer" ? "reviewer" : policy === "group" ? "approvers" : "chat's owner";
  const keys = new Set([...Object.keys(original), ...Object.keys(approved.args)]);
  const changes: string[] = [];
  for (const key of keys) {
    const before = JSON.stringify(original[key]);
    const after = JSON.stringify(approved.args[key]);
    if (before !== after) changes.push(`${key} from ${before ?? "unset"} to ${after ?? "unset"}`);
  }
  const changed = changes.length > 0 ? ` The ${who} changed ${changes.join(", ")}.` : "";
  const label = policy === "reviewer" ? "Reviewer's" : policy === "group" ? "Approvers'" : "Owner's";
  const noted = approved.note ? ` ${label} note: "${approved.note}".` : "";
  return `${changed}${noted}`;
}
