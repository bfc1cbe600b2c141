import "server-only";
import { createDbPolicyStore } from "@/lib/agent/policy/db-policy-store";
import { clientToolFacts, ruleVerdict } from "@/lib/agent/policy/rule-verdict";
import type { TokenCaller } from "@/lib/auth/api-token-auth";
import type { DbClient } from "@/lib/db/db-types";
import type { GroupAudience } from "@/lib/engine/engine-types";

// The per-tool rules of ADR 0074, applied to an MCP client's permission prompt as to the app's
// own tools. Rules are keyed by the prompt's `tool_name` as the client sends it (`Bash`, `Edit`,
// `mcp__server__tool`); a condition sees `tool.source` "mcp-client", so a rule meant only for the
// app's own tool of the same name says so. `args` is the prompt's `input`; `user` is the token's
// owner, who asks.

export type PromptRule =
  /** No rule holds (or the tool has none): the prompt goes on as without rules. */
  | { status: "none" }
  /** Allowed at once, nobody asked, as the gate runs a call a rule makes free. */
  | { status: "allow" }
  /** Denied at once, nobody asked: blocked by a rule, or a rule could not be judged (fail closed). */
  | { status: "deny"; message: string }
  /** Asked of the reviewers, as without rules. */
  | { status: "reviewers" }
  | { status: "group"; audience: GroupAudience };

export async function promptRuleOf(
  db: DbClient,
  caller: TokenCaller,
  prompt: { toolName: string; input: Record<string, unknown> },
): Promise<PromptRule> {
  const verdict = await ruleVerdict({
    store: createDbPolicyStore({ db }),
    tool: clientToolFacts(prompt.toolName),
    args: prompt.input,
    askerId: caller.actor.id,
    runId: undefined,
    threadId: undefined,
  });
  if (verdict.status === "none") return { status: "none" };
  // The audit already holds why (`tool.rule_failed`); the client reads the same refusal a chat's model does.
  if (verdict.status === "refused") return { status: "deny", message: verdict.result.output };
  const { outcome, position } = verdict;
  switch (outcome.kind) {
    case "free":
      return { status: "allow" };
    case "blocked":
      return {
        status: "deny",
        message: `This call of ${prompt.toolName} is blocked by an administrator's rule (rule ${position + 1}), so it is denied.`,
      };
    case "group":
      return { status: "group", audience: { group: outcome.group, required: outcome.required } };
    // "owner" means the asker approves: here the asker is the token's owner, and the owner of a
    // request never approves it (four eyes), so the reviewers are asked instead.
    case "owner":
    case "reviewers":
      return { status: "reviewers" };
  }
}
