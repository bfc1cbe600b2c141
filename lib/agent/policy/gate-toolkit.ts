import {
  type Context,
  pendingOf,
  type Tool,
  type ToolkitLike,
  type ToolResult,
  type ToolSpec,
} from "toolnexus";
import { defaultPolicyFor, type ToolPolicy } from "@/lib/domain/tool-policy";
import type { ApprovalProfiles } from "./approval-profile";
import {
  type Asking,
  type AskingPolicy,
  approvalIdsFor,
  approvalRequest,
  approvedUnder,
  describeApproval,
  readApproval,
} from "./approval-request";
import type { PolicyStore } from "./policy-store";
import { ruleVerdict } from "./rule-verdict";

export interface GateOptions {
  /** Without a store every tool runs under its default and "always allow" is not offered. */
  store?: PolicyStore;
  /** The chat and its owner, for "always allow <tool> in this chat". */
  thread?: { threadId: string; ownerId: string };
  /** The run, for finding the arguments an approval granted when a call goes on after it. */
  runId?: string;
  profiles?: ApprovalProfiles;
  /** When an approval the gate asks for expires (RFC 3339). */
  approvalExpiresAt: () => string;
}

export interface GatedToolkit extends ToolkitLike {
  /** The tools behind the gate, blocked ones included, for listing them. */
  tools(): Tool[];
  close(): Promise<void>;
}

function blockedResult(name: string): ToolResult {
  return { output: `The tool ${name} is blocked by an administrator and was not run.`, isError: true };
}

function blockedByRule(name: string, position: number): ToolResult {
  return {
    output: `This call of ${name} is blocked by an administrator's rule (rule ${position + 1}) and was not run.`,
    isError: true,
  };
}

/** Keys only the gate may set on a request: who answers it. */
const GATE_KEYS = ["audience", "audienceGroup", "required", "escalation"] as const;

/**
 * Only the gate decides who answers an approval (through `data.audience`), so a tool's own
 * suspension cannot address itself to the chat's owner to get around a reviewer.
 */
function withoutAudience(result: ToolResult): ToolResult {
  const request = pendingOf(result);
  if (!request?.data || !GATE_KEYS.some((key) => key in request.data!)) return result;
  const data = { ...request.data };
  for (const key of GATE_KEYS) delete data[key];
  return { ...result, metadata: { ...result.metadata, pending: { ...request, data } } };
}

/**
 * Puts every tool of a toolkit behind its approval policy, in this one place: a call under a
 * policy that asks parks on an approval and runs, with the arguments as approved, only on the
 * retry that carries the approval; a declined call is never retried, so it never runs (the
 * loop feeds the decline back). Blocked tools are left out of the specs the model sees and
 * refused if called anyway. Before the policy, the tool's rules are judged (ADR 0074): the first
 * whose condition holds decides, and one that cannot be judged refuses the call. Policies and
 * rules are read at every call, so a change applies to the next one.
 */
export async function gateToolkit(
  inner: ToolkitLike & { tools(): Tool[]; close(): Promise<void> },
  options: GateOptions,
): Promise<GatedToolkit> {
  const { store, thread, profiles = {} } = options;
  const byName = new Map(inner.tools().map((tool) => [tool.name, tool]));
  // The specs of one model call come from what was last read; each call re-reads its own tool.
  const chosen = store ? await store.listPolicies() : new Map<string, ToolPolicy>();

  const lastRead = (tool: Tool): ToolPolicy =>
    chosen.get(tool.name) ?? defaultPolicyFor(tool.annotations, profiles[tool.name]?.defaultPolicy);

  const policyOf = async (tool: Tool): Promise<ToolPolicy> => {
    if (store) {
      const current = await store.getPolicy(tool.name);
      if (current === undefined) chosen.delete(tool.name);
      else chosen.set(tool.name, current);
    }
    return lastRead(tool);
  };

  const run = async (tool: Tool, args: Record<string, unknown>, ctx: Context | undefined) =>
    withoutAudience(await inner.execute(tool.name, args, ctx));

  const approved = async (tool: Tool, args: Record<string, unknown>, ctx: Context, under: AskingPolicy) => {
    const approval = readApproval(ctx.answer!, args);
    // Only the chat's owner can answer an approval asked under the owner policy, and only that
    // request offered "always allow".
    if (under === "owner" && approval.allowInThread && store && thread) {
      await store.allowInThread({ threadId: thread.threadId, toolName: tool.name, ownerId: thread.ownerId });
    }
    // The tool runs as on a first call: the approval was the gate's question, not the tool's.
    const { answer: _approval, ...fresh } = ctx;
    const result = await run(tool, approval.args, fresh);
    // A tool that asks its own question next goes on as the same call, parked on the same slot.
    if (pendingOf(result)) return { ...result, metadata: { ...result.metadata, continues: ctx.answer!.id } };
    return { ...result, output: `${result.output}${describeApproval(under, args, approval)}` };
  };

  const approvedArguments = async (ctx: Context) =>
    store && options.runId
      ? store.approvedArgumentsOf({ runId: options.runId, requestIds: approvalIdsFor(ctx) })
      : undefined;

  const execute = async (name: string, args: Record<string, unknown>, ctx?: Context): Promise<ToolResult> => {
    const tool = byName.get(name);
    if (!tool) return inner.execute(name, args, ctx);
    const policy = await policyOf(tool);
    if (policy === "blocked") return blockedResult(name);
    const under = approvedUnder(ctx);
    if (under && ctx) return approved(tool, args, ctx, under);
    // A retry with the tool's own answer continues a call that has already started, with the
    // arguments it was approved with if it was.
    if (ctx?.answer) return run(tool, (await approvedArguments(ctx)) ?? args, ctx);
    const verdict = store
      ? await ruleVerdict({
          store,
          tool,
          args,
          askerId: thread?.ownerId,
          runId: options.runId,
          threadId: thread?.threadId,
        })
      : ({ status: "none" } as const);
    if (verdict.status === "refused") return verdict.result;
    if (verdict.status === "decided") {
      const { outcome } = verdict;
      if (outcome.kind === "free") return run(tool, args, ctx);
      if (outcome.kind === "blocked") return blockedByRule(name, verdict.position);
      if (outcome.kind === "group")
        return ask(tool, args, ctx, {
          policy: "group",
          group: outcome.group,
          required: outcome.required,
          ...(outcome.escalation ? { escalation: outcome.escalation } : {}),
        });
      if (outcome.kind === "reviewers")
        return ask(tool, args, ctx, {
          policy: "reviewer",
          ...(outcome.escalation ? { escalation: outcome.escalation } : {}),
        });
      return ask(tool, args, ctx, { policy: "owner" });
    }
    if (policy === "free") return run(tool, args, ctx);
    const profile = profiles[name];
    if (profile?.asksFor && !profile.asksFor(args)) return run(tool, args, ctx);
    return ask(tool, args, ctx, { policy });
  };

  const ask = async (
    tool: Tool,
    args: Record<string, unknown>,
    ctx: Context | undefined,
    asking: Asking,
  ): Promise<ToolResult> => {
    if (asking.policy === "owner" && store && thread) {
      if (await store.isAllowedInThread({ threadId: thread.threadId, toolName: tool.name }))
        return run(tool, args, ctx);
    }
    return approvalRequest({
      tool,
      args,
      ctx,
      asking,
      profile: profiles[tool.name],
      offerAllowInThread: asking.policy === "owner" && store !== undefined && thread !== undefined,
      expiresAt: options.approvalExpiresAt(),
    });
  };

  return {
    specs: (): ToolSpec[] =>
      inner.specs().filter((spec) => {
        const tool = byName.get(spec.name);
        return tool === undefined || lastRead(tool) !== "blocked";
      }),
    has: (name) => inner.has(name),
    execute,
    tools: () => inner.tools(),
    close: () => inner.close(),
  };
}
