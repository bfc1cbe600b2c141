import type { ToolPolicy } from "@/lib/domain/tool-policy";
import type { ToolRuleRow } from "@/lib/domain/tool-rules";

/**
 * Where the gate reads admins' policy choices and chat owners' allowances, at call time, so a
 * change made on any instance applies to the next call everywhere.
 */
export interface PolicyStore {
  /** Every admin-chosen policy, by tool name; tools missing here run under their default. */
  listPolicies(): Promise<Map<string, ToolPolicy>>;
  getPolicy(toolName: string): Promise<ToolPolicy | undefined>;
  isAllowedInThread(input: { threadId: string; toolName: string }): Promise<boolean>;
  /** Records the owner's "always allow <tool> in this chat"; already allowed is no change. */
  allowInThread(input: { threadId: string; toolName: string; ownerId: string }): Promise<void>;
  /**
   * The arguments an approval of this run granted, if one of `requestIds` was approved: a call
   * that goes on asking its own questions after the approval keeps running with them.
   */
  approvedArgumentsOf(input: {
    runId: string;
    requestIds: string[];
  }): Promise<Record<string, unknown> | undefined>;
  /** A tool's rules in the order they are tried (read at every call: no cache to go stale). */
  rulesOf(toolName: string): Promise<ToolRuleRow[]>;
  /** What a rule's condition sees of the person whose chat makes the call. */
  callerOf(userId: string): Promise<{ email: string; role: string; groups: string[] }>;
  /**
   * The members of a group who could approve a call of `askerId` (never the asker: four eyes),
   * or undefined when there is no such group.
   */
  eligibleApprovers(input: { slug: string; askerId: string }): Promise<number | undefined>;
  /** Records in the audit that a rule could not be judged and so refused a call. */
  recordRuleFailure(input: {
    toolName: string;
    actorId: string | null;
    detail: { position: number; condition: string; error: string; runId?: string; threadId?: string };
  }): Promise<void>;
}
