import type { Tool } from "toolnexus";
import { listEnabledBuiltins } from "@/lib/db/builtin-tools";
import type { DbClient } from "@/lib/db/db-types";
import { listToolPolicies } from "@/lib/db/tool-policies";
import type { ToolPolicyRow } from "@/lib/domain/tool-policy";
import { createAgentToolkit, DEMO_APPROVAL_PROFILES } from "./create-agent-toolkit";
import { describeToolPolicies } from "./policy/describe-tools";

/**
 * Every tool the agent has, from the very toolkit a run gets (so tools from every source are
 * listed), with the policy each one runs under now.
 */
export async function listAgentToolPolicies({
  db,
  userId,
  mcpTools,
}: {
  db: DbClient;
  userId: string;
  /** The connected MCP servers' tools, as runs get them. */
  mcpTools: Tool[];
}): Promise<ToolPolicyRow[]> {
  const builtins = await listEnabledBuiltins({ db });
  const toolkit = await createAgentToolkit({ userId, runId: "tool-catalog", mcpTools, builtins });
  try {
    return describeToolPolicies(toolkit.tools(), await listToolPolicies({ db }), DEMO_APPROVAL_PROFILES);
  } finally {
    await toolkit.close();
  }
}

/** What the agent can do, one entry per tool of its own and each built-in switched on: its A2A skills. */
export async function listAgentSkills({
  db,
}: {
  db: DbClient;
}): Promise<{ name: string; title: string; description: string; source: string }[]> {
  const builtins = await listEnabledBuiltins({ db });
  const toolkit = await createAgentToolkit({ userId: "agent-card", runId: "agent-card", builtins });
  try {
    return toolkit.tools().map((tool) => ({
      name: tool.name,
      title: tool.annotations?.title ?? tool.name,
      description: tool.description,
      source: tool.source,
    }));
  } finally {
    await toolkit.close();
  }
}
