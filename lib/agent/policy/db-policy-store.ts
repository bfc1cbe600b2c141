import { getApproverGroupBySlug, listGroupSlugsForUser } from "@/lib/db/approver-groups";
import type { DbClient } from "@/lib/db/db-types";
import { listRequestsByWireIds } from "@/lib/db/requests";
import {
  createThreadToolAllowance,
  getToolPolicyByName,
  hasThreadToolAllowance,
  listToolPolicies,
} from "@/lib/db/tool-policies";
import { listToolRules, recordRuleFailure } from "@/lib/db/tool-rules";
import { getUserById } from "@/lib/db/users";
import type { PolicyStore } from "./policy-store";

/** Policies and allowances as the database holds them: one small read per gated call, no cache to go stale. */
export function createDbPolicyStore({ db }: { db: DbClient }): PolicyStore {
  return {
    listPolicies: () => listToolPolicies({ db }),
    getPolicy: (toolName) => getToolPolicyByName({ db, toolName }),
    isAllowedInThread: ({ threadId, toolName }) => hasThreadToolAllowance({ db, threadId, toolName }),
    allowInThread: async ({ threadId, toolName, ownerId }) => {
      await createThreadToolAllowance({ db, threadId, toolName, actorId: ownerId });
    },
    approvedArgumentsOf: async ({ runId, requestIds }) => {
      for (const request of (await listRequestsByWireIds({ db, runId, wireIds: requestIds })).values()) {
        const args = request.answer?.ok ? request.answer.data?.arguments : undefined;
        if (typeof args === "object" && args !== null && !Array.isArray(args))
          return args as Record<string, unknown>;
      }
      return undefined;
    },
    rulesOf: (toolName) => listToolRules({ db, toolName }),
    callerOf: async (userId) => {
      const [user, groups] = await Promise.all([
        getUserById({ db, userId }),
        listGroupSlugsForUser({ db, userId }),
      ]);
      return { email: user?.email ?? "", role: user?.role ?? "user", groups };
    },
    eligibleApprovers: async ({ slug, askerId }) => {
      const group = await getApproverGroupBySlug({ db, slug });
      return group?.memberIds.filter((id) => id !== askerId).length;
    },
    recordRuleFailure: ({ toolName, actorId, detail }) =>
      recordRuleFailure({ db, toolName, actorId, detail }),
  };
}
