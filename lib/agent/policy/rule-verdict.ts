import type { Tool, ToolResult } from "toolnexus";
import type { RuleOutcome } from "@/lib/domain/tool-rules";
import type { PolicyStore } from "./policy-store";
import { type CallFacts, judgeRules } from "./rule-conditions";

/** What a tool's rules say about one call. */
export type RuleVerdict =
  /** No rule holds (or the tool has none): the tool's policy applies. */
  | { status: "none" }
  | { status: "decided"; outcome: RuleOutcome; position: number }
  /** The call is refused before anything runs or anyone is asked; the audit says why. */
  | { status: "refused"; result: ToolResult };

/** What a condition reads about the tool: plain JSON, the same on every call. */
export function toolFacts(tool: RuledTool): CallFacts["tool"] {
  return {
    name: tool.name,
    source: tool.source ?? "native",
    annotations: JSON.parse(JSON.stringify(tool.annotations ?? {})) as Record<string, unknown>,
  };
}

/** The `tool.source` a condition reads for an MCP client's permission prompt. */
export const MCP_CLIENT_SOURCE = "mcp-client";

/**
 * What a condition reads as `tool` for an MCP client's tool, named as the client names it: the
 * prompt has no `Tool` behind it, so no annotations. The prompt and "try it" both read these.
 */
export function clientToolFacts(name: string): CallFacts["tool"] {
  return { name, source: MCP_CLIENT_SOURCE, annotations: {} };
}

/** What rules are judged by of a tool: an MCP client's permission prompt has no `Tool` behind it. */
export type RuledTool = Pick<Tool, "name" | "source" | "annotations">;

const NOBODY: CallFacts["user"] = { email: "", role: "user", groups: [] };

/**
 * Judges a call against its tool's rules, read from the database at this call. A condition that
 * cannot be judged, or a group that cannot give the approvals its rule asks for, refuses the call
 * (fail closed): the model reads that it was refused, the audit reads the reason.
 */
export async function ruleVerdict(input: {
  store: PolicyStore;
  tool: RuledTool;
  args: Record<string, unknown>;
  /**
   * The person the call is made for (the chat's owner, or an MCP token's owner); they never count
   * as an approver.
   */
  askerId: string | undefined;
  runId: string | undefined;
  threadId: string | undefined;
}): Promise<RuleVerdict> {
  const { store, tool, args, askerId } = input;
  const rules = await store.rulesOf(tool.name);
  if (rules.length === 0) return { status: "none" };
  const user = askerId ? await store.callerOf(askerId) : NOBODY;
  const trial = judgeRules(rules, { args, tool: toolFacts(tool), user });
  if (trial.status === "no_match") return { status: "none" };

  const refuse = async (position: number, error: string): Promise<RuleVerdict> => {
    await store.recordRuleFailure({
      toolName: tool.name,
      actorId: askerId ?? null,
      detail: {
        position,
        condition: rules.find((rule) => rule.position === position)?.condition ?? "",
        error,
        ...(input.runId ? { runId: input.runId } : {}),
        ...(input.threadId ? { threadId: input.threadId } : {}),
      },
    });
    return {
      status: "refused",
      result: {
        output:
          `The call to ${tool.name} was refused: approval rule ${position + 1} of this tool could not ` +
          "be applied to it, so it was not run and nobody was asked. An administrator can see why in the audit log.",
        isError: true,
      },
    };
  };

  if (trial.status === "failed") return refuse(trial.position, trial.error);
  const { outcome } = trial;
  if (outcome.kind === "group" && askerId !== undefined) {
    const eligible = await store.eligibleApprovers({ slug: outcome.group, askerId });
    if (eligible === undefined) return refuse(trial.position, `The group ${outcome.group} does not exist.`);
    if (eligible < outcome.required)
      return refuse(
        trial.position,
        `The rule needs ${outcome.required} approvals from ${outcome.group}, which has only ${eligible} member(s) other than the person asking.`,
      );
  }
  return { status: "decided", outcome, position: trial.position };
}
