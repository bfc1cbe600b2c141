import { Environment } from "@marcbachmann/cel-js";
import {
  type ConditionPosition,
  RULE_CONDITION_MAX_LENGTH,
  type RuleOutcome,
  type RuleTrial,
} from "@/lib/domain/tool-rules";

/** What a condition sees of one call. */
export interface CallFacts {
  args: Record<string, unknown>;
  tool: { name: string; source: string; annotations: Record<string, unknown> };
  user: { email: string; role: string; groups: string[] };
}

// The variables are declared with their fields, so `user.emial` is refused when the rule is
// saved, not when a call meets it. `args` is a map: every tool has its own arguments.
const environment = new Environment({
  limits: { maxAstNodes: 400, maxDepth: 40, maxListElements: 200, maxMapEntries: 200, maxCallArguments: 8 },
})
  .registerVariable("args", "map")
  .registerVariable({ name: "tool", schema: { name: "string", source: "string", annotations: "map" } })
  .registerVariable({ name: "user", schema: { email: "string", role: "string", groups: "list<string>" } });

type Compiled = ReturnType<typeof environment.parse>;

// Keyed by the condition's text, so an edited rule is simply a new key: nothing here can go
// stale, and each process parses a condition once instead of at every call.
const compiled = new Map<string, Compiled>();
const COMPILED_MAX = 500;

function compile(condition: string): Compiled {
  let parsed = compiled.get(condition);
  if (!parsed) {
    parsed = environment.parse(condition);
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(condition, parsed);
  }
  return parsed;
}

export function positionAt(text: string, offset: number): ConditionPosition {
  const clamped = Math.max(0, Math.min(offset, text.length));
  const before = text.slice(0, clamped).split("\n");
  return { offset: clamped, line: before.length, column: before.at(-1)!.length + 1 };
}

/** The library's message without the source excerpt it appends, and where it points. */
function problemOf(error: unknown, text: string): { message: string; position: ConditionPosition } {
  const raw = error instanceof Error ? error.message : String(error);
  const message = raw.split("\n")[0]!.trim() || "The condition is not valid.";
  const pos = (error as { node?: { pos?: unknown } } | null)?.node?.pos;
  return { message, position: positionAt(text, typeof pos === "number" ? pos : 0) };
}

export type ConditionCheck = { ok: true } | { ok: false; message: string; position: ConditionPosition };

/**
 * Checks a condition as it is saved: its syntax, that it names only `args`, `tool` and `user`
 * (and their known fields), that it fits the length limit, and that it can only be true or false.
 */
export function checkCondition(condition: string): ConditionCheck {
  if (condition.trim() === "")
    return { ok: false, message: "Write a condition, such as true.", position: positionAt(condition, 0) };
  if (condition.length > RULE_CONDITION_MAX_LENGTH)
    return {
      ok: false,
      message: `The condition is longer than ${RULE_CONDITION_MAX_LENGTH} characters.`,
      position: positionAt(condition, RULE_CONDITION_MAX_LENGTH),
    };
  let result: ReturnType<typeof environment.check>;
  try {
    result = environment.check(condition);
  } catch (error) {
    return { ok: false, ...problemOf(error, condition) };
  }
  if (!result.valid) return { ok: false, ...problemOf(result.error, condition) };
  if (result.type !== "bool" && result.type !== "dyn")
    return {
      ok: false,
      message: `The condition must be true or false, but it gives a value of type ${String(result.type)}.`,
      position: positionAt(condition, 0),
    };
  return { ok: true };
}

export type ConditionResult = { ok: true; holds: boolean } | { ok: false; error: string };

/** Judges one condition for one call. Anything but a clean true or false is an error. */
export function evaluateCondition(condition: string, facts: CallFacts): ConditionResult {
  try {
    const value = compile(condition)({ args: facts.args, tool: facts.tool, user: facts.user });
    if (typeof value !== "boolean")
      return { ok: false, error: `The condition gave ${typeof value}, not true or false.` };
    return { ok: true, holds: value };
  } catch (error) {
    return { ok: false, error: problemOf(error, condition).message };
  }
}

/**
 * Which of a tool's rules (in order) takes a call. The first condition that holds wins; one that
 * cannot be judged stops the search, and the caller refuses the call (fail closed).
 */
export function judgeRules(
  rules: readonly { position: number; condition: string; outcome: RuleOutcome }[],
  facts: CallFacts,
): RuleTrial {
  const passed: number[] = [];
  for (const rule of rules) {
    const result = evaluateCondition(rule.condition, facts);
    if (!result.ok) return { status: "failed", position: rule.position, error: result.error, passed };
    if (result.holds) return { status: "matched", position: rule.position, outcome: rule.outcome, passed };
    passed.push(rule.position);
  }
  return { status: "no_match", passed };
}
