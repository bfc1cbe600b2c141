import type { Tool } from "toolnexus";
import { listAgentToolPolicies } from "@/lib/agent/agent-tool-catalog";
import { listApproverGroups } from "@/lib/db/approver-group-admin";
import type { DbClient } from "@/lib/db/db-types";
import { listAllToolRules } from "@/lib/db/tool-rules";
import { TOOL_POLICY_LABELS } from "@/lib/domain/tool-policy";
import { AdminToolRules } from "./admin-tool-rules";
import { ClientToolRules, clientToolToOpen } from "./client-tool-rules";

/**
 * Rules per tool (ADR 0074): conditions on a call that decide who must agree before it runs,
 * tried in order before the tool's policy. Read from the database at every call, so a saved
 * change applies to the next call on every instance.
 */
export async function ToolRulesSection({
  db,
  adminId,
  mcpTools,
  clientTool,
}: {
  db: DbClient;
  adminId: string;
  mcpTools: Tool[];
  /** The `?clientTool=` query value: an MCP client's tool name to open an editor for. */
  clientTool: unknown;
}) {
  const [tools, rules, groups] = await Promise.all([
    listAgentToolPolicies({ db, userId: adminId, mcpTools }),
    listAllToolRules({ db }),
    listApproverGroups({ db }),
  ]);
  const groupOptions = groups.map(({ slug, name }) => ({ slug, name }));
  const drafts = new Map(
    [...rules].map(([name, list]) => [name, list.map(({ condition, outcome }) => ({ condition, outcome }))]),
  );
  const appTools = new Set(tools.map((tool) => tool.name));
  return (
    <section className="stack" aria-labelledby="tool-rules-title">
      <h2 id="tool-rules-title">Rules</h2>
      <p className="muted">
        Each tool may have an ordered list of rules. A rule's condition is a CEL expression over the call:{" "}
        <code>args</code> (its arguments), <code>tool</code> (<code>name</code>, <code>source</code>,{" "}
        <code>annotations</code>) and <code>user</code> (<code>email</code>, <code>role</code>,{" "}
        <code>groups</code>
        ), for example <code>args.amount &gt; 1000</code>. The first rule whose condition holds decides; when
        none does, the tool's policy applies. A condition that cannot be judged for a call (a missing field,
        say) refuses the call. A blocked tool stays blocked whatever its rules say. Groups are managed under
        Groups.
      </p>
      {tools.map((tool) => {
        const toolRules = drafts.get(tool.name) ?? [];
        const policy = `${TOOL_POLICY_LABELS[tool.policy]}${tool.scope && tool.policy !== "free" && tool.policy !== "blocked" ? ` (only for ${tool.scope})` : ""}`;
        return (
          <details
            key={tool.name}
            className="admin-tool-rules"
            data-tool-rules={tool.name}
            open={toolRules.length > 0}
          >
            <summary>
              <code>{tool.name}</code> —{" "}
              {toolRules.length === 0
                ? "no rules"
                : `${toolRules.length} rule${toolRules.length === 1 ? "" : "s"}`}
              ; otherwise {policy.toLowerCase()}
            </summary>
            <AdminToolRules tool={{ name: tool.name, policy, rules: toolRules }} groups={groupOptions} />
          </details>
        );
      })}
      <ClientToolRules
        rules={drafts}
        appTools={appTools}
        open={clientToolToOpen(clientTool, appTools)}
        groups={groupOptions}
      />
    </section>
  );
}
