import "server-only";
import type { DbClient } from "@/lib/db/db-types";
import type { StoredRequest } from "@/lib/db/requests";
import { getUserById } from "@/lib/db/users";
import { askAndWait, type McpCallContext, type ToolExtra } from "./ask-and-wait";
import { defaultExpirySeconds } from "./mcp-limits";
import { promptRuleOf } from "./prompt-rules";
import { allowedByGrant, grantIfTicked, tickRevokedSince } from "./token-grants";
import { approvalRequest, permissionDecision, permissionPrompt } from "./tool-requests";

// `permission_prompt`, Claude Code's contract (ADR 0064): the tool's rules are judged first (ADR
// 0074); then a grant lets it through unasked (ADR 0065), unless a rule addressed it to a group;
// else it asks the inbox, or finds the request an earlier try of the same call made.

function reply(decision: Record<string, unknown>) {
  return { content: [{ type: "text" as const, text: JSON.stringify(decision) }] };
}

export async function answererOf(db: DbClient, stored: StoredRequest): Promise<string | undefined> {
  const actorId = stored.answer?.actorId;
  if (!actorId) return undefined;
  const user = await getUserById({ db, userId: actorId });
  return user ? user.name || user.email || undefined : undefined;
}

export async function promptForPermission(
  context: McpCallContext & { db: DbClient },
  {
    tool_name,
    input,
    tool_use_id,
  }: { tool_name: string; input: Record<string, unknown>; tool_use_id?: string },
  extra: ToolExtra,
) {
  const { db, caller } = context;
  const rule = await promptRuleOf(db, caller, { toolName: tool_name, input });
  if (rule.status === "allow") return reply({ behavior: "allow", updatedInput: input });
  if (rule.status === "deny") return reply({ behavior: "deny", message: rule.message });
  // A group's M approvals are not to be replaced by one reviewer's "always allow", given or offered.
  const group = rule.status === "group" ? rule.audience : undefined;
  if (!group && (await allowedByGrant(db, caller, { toolName: tool_name, toolUseId: tool_use_id }))) {
    return reply({ behavior: "allow", updatedInput: input });
  }
  let askedAgain: string | undefined;
  for (;;) {
    const stored = await askAndWait(
      context,
      {
        tool: "permission_prompt",
        request: approvalRequest({
          prompt: permissionPrompt(tool_name, input),
          tool: tool_name,
          args: input,
          expiresInSeconds: defaultExpirySeconds(),
          offerAllowForToken: !group,
        }),
        ...(group ? { audience: group } : {}),
        callKey: tool_use_id,
        ...(askedAgain ? { askedAgain } : {}),
        sameness: { tool_name, input },
        keyField: "tool_use_id",
      },
      extra,
    );
    // A repeat that finds an approval whose "always allow" the owner has revoked since does not
    // reuse it: the revoke took back the trust that approval gave, so the person is asked anew,
    // in a request of its own that the call's later repeats find in turn (ADR 0072).
    const revoked = group ? undefined : await tickRevokedSince(db, caller, tool_name, stored);
    if (revoked) {
      askedAgain = revoked;
      continue;
    }
    if (!group) await grantIfTicked(db, caller, tool_name, stored);
    return reply(permissionDecision(stored, input, await answererOf(db, stored)));
  }
}
