import type { DbClient } from "@/lib/db/db-types";
import { listRequestsByWireIds } from "@/lib/db/requests";
import {
  createThreadToolAllowance,
  getToolPolicyByName,
  hasThreadToolAllowance,
  listToolPolicies,
} from "@/lib/db/tool-policies";
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
  };
}
