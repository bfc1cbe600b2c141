import type { RulesGroup } from "@/components/admin/tool-rules-editor";
import { CLIENT_TOOL_NAME_PATTERN, type ToolRuleDraft } from "@/lib/domain/tool-rules";
import { AdminToolRules } from "./admin-tool-rules";

// What applies to a client's prompt when no rule holds: it is asked of the reviewers, as without rules.
const CLIENT_POLICY = "Any reviewer approves";

/**
 * The `?clientTool=` name to open an editor for: a name a client may send that is not one of the
 * app's tools (those are edited above). Anything else is ignored.
 */
export function clientToolToOpen(value: unknown, appTools: ReadonlySet<string>): string | undefined {
  return typeof value === "string" && CLIENT_TOOL_NAME_PATTERN.test(value) && !appTools.has(value)
    ? value
    : undefined;
}

/**
 * Rules for the tools an MCP client names in its permission prompts (`Bash`, `Edit`): every such
 * name that has rules, and a form to open an editor for another one.
 */
export function ClientToolRules({
  rules,
  appTools,
  open,
  groups,
}: {
  rules: ReadonlyMap<string, ToolRuleDraft[]>;
  appTools: ReadonlySet<string>;
  open: string | undefined;
  groups: RulesGroup[];
}) {
  const names = [...rules.keys()].filter((name) => !appTools.has(name));
  if (open && !names.includes(open)) names.push(open);
  return (
    <section className="stack" id="client-tool-rules" aria-labelledby="client-tool-rules-title">
      <h3 id="client-tool-rules-title">Agents' permission prompts (MCP clients)</h3>
      <p className="muted">
        An MCP client's permission prompt is judged by the rules saved under its tool's name exactly as the
        client sends it (Claude Code's <code>Bash</code>, say), with <code>tool.source</code> "mcp-client".
        When no rule holds, the reviewers are asked.
      </p>
      {names.map((name) => {
        const toolRules = rules.get(name) ?? [];
        return (
          <details
            key={name}
            className="admin-tool-rules"
            data-tool-rules={name}
            open={toolRules.length > 0 || name === open}
          >
            <summary>
              <code>{name}</code> —{" "}
              {toolRules.length === 0
                ? "no rules"
                : `${toolRules.length} rule${toolRules.length === 1 ? "" : "s"}`}
              ; otherwise {CLIENT_POLICY.toLowerCase()}
            </summary>
            <AdminToolRules tool={{ name, policy: CLIENT_POLICY, rules: toolRules }} groups={groups} />
          </details>
        );
      })}
      <form
        method="get"
        action="/admin/tools#client-tool-rules"
        className="admin-search"
        aria-label="Rules for a client's tool"
      >
        <label>
          Rules for a client's tool
          <input
            name="clientTool"
            required
            maxLength={64}
            pattern={"[A-Za-z0-9_.:\\-]{1,64}"}
            title='1 to 64 letters, digits, "_", "-", "." or ":"; not one of the tools above'
            placeholder="Bash"
          />
        </label>
        <button type="submit" className="button button-secondary">
          Open
        </button>
      </form>
    </section>
  );
}
