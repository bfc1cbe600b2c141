import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { listAgentToolPolicies } from "@/lib/agent/agent-tool-catalog";
import type { McpPool } from "@/lib/agent/mcp/mcp-pool";
import type { DbClient } from "@/lib/db/db-types";
import { setToolPolicyByName } from "@/lib/db/tool-policies";
import { needsConfirmationToRunFreely, TOOL_POLICIES, type ToolPolicy } from "@/lib/domain/tool-policy";
import { AppError } from "@/lib/errors";

export const changeToolPolicyInput = z
  .object({
    toolName: z.string().min(1).max(200),
    /** "default" gives the tool back the policy its annotations say. */
    policy: z.enum([...TOOL_POLICIES, "default"]),
    /** The admin saw the warning that this tool may destroy things or reach the outside world. */
    confirmed: z.boolean().optional(),
  })
  .strict();

export interface ToolPolicyChanged {
  toolName: string;
  policy: ToolPolicy;
  isDefault: boolean;
  changed: boolean;
}

/**
 * An admin sets the policy of one of the agent's tools, or returns it to its default. It applies
 * to the next call of that tool on every instance: the gate reads it at call time.
 */
export const changeToolPolicy = defineAction(
  { role: "admin", input: changeToolPolicyInput },
  async (
    { actor, input: { toolName, policy, confirmed } },
    { db, mcp }: { db: DbClient; mcp: Pick<McpPool, "tools"> },
  ): Promise<ToolPolicyChanged> => {
    const tool = (await listAgentToolPolicies({ db, userId: actor.id, mcpTools: await mcp.tools() })).find(
      (row) => row.name === toolName,
    );
    if (!tool) throw new AppError("not_found:tool");
    const chosen = policy === "default" ? null : policy;
    // The page asks first; the server refuses without that answer too, so no client can skip it.
    if (chosen === "free" && needsConfirmationToRunFreely(tool) && confirmed !== true) {
      throw new AppError("invalid:unconfirmed_free", {
        issues: [{ path: "/confirmed", message: "Confirm that this tool may run without approval." }],
      });
    }
    const change = await setToolPolicyByName({
      db,
      toolName,
      policy: chosen,
      defaultPolicy: tool.defaultPolicy,
      actorId: actor.id,
    });
    if (change.outcome === "stale") throw new AppError("conflict:policy_changed");
    return {
      toolName,
      policy: chosen ?? tool.defaultPolicy,
      isDefault: chosen === null,
      changed: change.outcome === "changed",
    };
  },
);
