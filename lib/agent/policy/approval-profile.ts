import type { ToolPolicy } from "@/lib/domain/tool-policy";
import type { JsonSchema } from "@/lib/toolnexus/types";

/**
 * What a tool may tell the gate about approving its calls. Every field is optional: a tool
 * without a profile (any MCP tool) is asked about on every call under a policy that asks, with
 * a generic prompt and its whole input schema editable.
 */
export interface ApprovalProfile {
  /** The default policy, where the annotations alone would give the wrong one. */
  defaultPolicy?: ToolPolicy;
  /** Which calls a policy that asks applies to; the others run freely. Default: every call. */
  asksFor?: (args: Record<string, unknown>) => boolean;
  /** Says in words which calls `asksFor` picks, for the admin page. */
  scope?: string;
  /** The question the approver reads. */
  prompt?: (args: Record<string, unknown>) => string;
  /**
   * What approving does, in one sentence with `{argument}` placeholders (`{amount:usd}` for
   * money): the decision card's heading, filled with the arguments as asked or as approved
   * (`lib/domain/request-summary.ts`). Without it the card leads with the prompt.
   */
  summary?: string;
  /** The editable arguments' schema for one call, narrower than the input schema. */
  editableSchema?: (args: Record<string, unknown>, inputSchema: JsonSchema) => JsonSchema;
}

export type ApprovalProfiles = Readonly<Record<string, ApprovalProfile>>;
