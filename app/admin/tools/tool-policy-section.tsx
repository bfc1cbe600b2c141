import type { Tool } from "toolnexus";
import { listAgentToolPolicies } from "@/lib/agent/agent-tool-catalog";
import type { DbClient } from "@/lib/db/db-types";
import { AdminToolPolicyTable } from "./admin-tool-policy-table";

/**
 * The approval policies of every tool the agent has. A change applies to the next call of
 * that tool, on every instance, and is recorded in the audit log.
 */
export async function ToolPolicySection({
  db,
  adminId,
  mcpTools,
}: {
  db: DbClient;
  adminId: string;
  mcpTools: Tool[];
}) {
  const tools = await listAgentToolPolicies({ db, userId: adminId, mcpTools });
  return (
    <section className="stack" aria-labelledby="tool-policies-title">
      <h2 id="tool-policies-title">Approval policies</h2>
      <p className="muted">
        Runs freely: the call runs at once. The chat's owner approves: the chat asks its owner, who may allow
        the tool for the rest of that chat. A reviewer approves: the call waits in the reviewers' inbox.
        Blocked: the model is never offered the tool. Without a choice here a tool runs under its default:
        read-only tools run freely, destructive ones need a reviewer, others ask the chat's owner.
      </p>
      <AdminToolPolicyTable tools={tools} />
    </section>
  );
}
