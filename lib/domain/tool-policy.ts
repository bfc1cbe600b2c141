import type { ToolAnnotations } from "@/lib/toolnexus/types";

/**
 * Who must agree before a tool call runs. `free` runs at once; `owner` asks the chat's owner;
 * `reviewer` asks a reviewer in the inbox; `blocked` is never offered to the model and refused
 * if called anyway.
 */
export const TOOL_POLICIES = ["free", "owner", "reviewer", "blocked"] as const;

export type ToolPolicy = (typeof TOOL_POLICIES)[number];

export const TOOL_POLICY_LABELS: Readonly<Record<ToolPolicy, string>> = {
  free: "Runs freely",
  owner: "The chat's owner approves",
  reviewer: "A reviewer approves",
  blocked: "Blocked",
};

export function isToolPolicy(value: unknown): value is ToolPolicy {
  return typeof value === "string" && (TOOL_POLICIES as readonly string[]).includes(value);
}

/**
 * The policy of a tool nobody chose one for, from what the tool says about itself: reading is
 * harmless, destroying needs a second pair of eyes, anything else is the chat owner's call.
 * A tool's own `defaultPolicy` (the app's demo tools state one where the annotations alone
 * would change how they have always behaved) wins over the annotations.
 */
export function defaultPolicyFor(annotations: ToolAnnotations | undefined, stated?: ToolPolicy): ToolPolicy {
  if (stated) return stated;
  if (annotations?.readOnlyHint === true) return "free";
  if (annotations?.destructiveHint === true) return "reviewer";
  return "owner";
}

/**
 * Whether letting a tool run freely needs an admin's explicit confirmation: it says it may destroy
 * something or reach beyond this app (MCP's destructiveHint / openWorldHint), and by default it
 * asks first. A tool that runs freely by default anyway (one that only reads) changes nothing.
 */
export function needsConfirmationToRunFreely(tool: {
  annotations: ToolAnnotations;
  defaultPolicy: ToolPolicy;
}): boolean {
  const warns = tool.annotations.destructiveHint === true || tool.annotations.openWorldHint === true;
  return warns && tool.defaultPolicy !== "free";
}

/** The policy in force and whether it is the tool's default or an admin's choice. */
export type EffectivePolicy =
  | { policy: ToolPolicy; source: "default" }
  | { policy: ToolPolicy; source: "admin"; defaultPolicy: ToolPolicy };

export function effectivePolicy(chosen: ToolPolicy | undefined, defaultPolicy: ToolPolicy): EffectivePolicy {
  return chosen === undefined
    ? { policy: defaultPolicy, source: "default" }
    : { policy: chosen, source: "admin", defaultPolicy };
}

/** One tool as the admin page shows it: what it is, what it says about itself, and its policy. */
export interface ToolPolicyRow {
  name: string;
  title: string;
  description: string;
  source: string;
  annotations: ToolAnnotations;
  policy: ToolPolicy;
  defaultPolicy: ToolPolicy;
  isDefault: boolean;
  /** Which calls a policy that asks applies to, when not every call. */
  scope?: string;
}
