import type { ToolPolicy } from "@/lib/domain/tool-policy";

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
}
