import { describe, expect, it } from "vitest";
import { RULE_CONDITION_MAX_LENGTH } from "@/lib/domain/tool-rules";
import { type CallFacts, checkCondition, evaluateCondition, judgeRules } from "./rule-conditions";

const facts = (args: Record<string, unknown>, groups: string[] = []): CallFacts => ({
  args,
  tool: { name: "refund", source: "native", annotations: { destructiveHint: true } },
  user: { email: "alice@example.com", role: "user", groups },
});

describe("checking a condition when it is saved", () => {
  it("accepts conditions over args, tool and user", () => {
    for (const condition of [
      "args.amount > 1000",
      'args.environment == "production" && !("sre" in user.groups)',
      'tool.annotations.destructiveHint == true && user.role != "admin"',
      "has(args.reason)",
      "true",
    ])
      expect(checkCondition(condition), condition).toEqual({ ok: true });
  });

  it("refuses a syntax error with its line and column", () => {
    expect(checkCondition("args.amount >\n  && true")).toEqual({
      ok: false,
      message: expect.stringMatching(/Unexpected token/),
      position: { offset: 16, line: 2, column: 3 },
    });
  });

  it("refuses an unknown variable, or an unknown field of user or tool, where it stands", () => {
    expect(checkCondition("amount > 1000")).toEqual({
      ok: false,
      message: "Unknown variable: amount",
      position: { offset: 0, line: 1, column: 1 },
    });
    expect(checkCondition("args.a == 1 || user.emial == 'x'")).toMatchObject({
      ok: false,
      message: expect.stringContaining("emial"),
      position: { line: 1, column: 21 },
    });
  });

  it("refuses one that is too long, at the limit, and one that is not true or false", () => {
    const long = `args.a == "${"x".repeat(RULE_CONDITION_MAX_LENGTH)}"`;
    expect(checkCondition(long)).toEqual({
      ok: false,
      message: `The condition is longer than ${RULE_CONDITION_MAX_LENGTH} characters.`,
      position: { offset: RULE_CONDITION_MAX_LENGTH, line: 1, column: RULE_CONDITION_MAX_LENGTH + 1 },
    });
    expect(checkCondition("1 + 2")).toMatchObject({
      ok: false,
      message: expect.stringContaining("type int"),
    });
    expect(checkCondition("  ")).toMatchObject({ ok: false });
  });
});

describe("judging a call", () => {
  it("matches and does not match on the call's arguments and the user's groups", () => {
    expect(evaluateCondition("args.amount > 1000", facts({ amount: 2500 }))).toEqual({
      ok: true,
      holds: true,
    });
    expect(evaluateCondition("args.amount > 1000", facts({ amount: 250 }))).toEqual({
      ok: true,
      holds: false,
    });
    const sre = 'args.environment == "production" && !("sre" in user.groups)';
    expect(evaluateCondition(sre, facts({ environment: "production" }))).toEqual({ ok: true, holds: true });
    expect(evaluateCondition(sre, facts({ environment: "production" }, ["sre"]))).toEqual({
      ok: true,
      holds: false,
    });
  });

  it("is an error, not false, when a field is missing or the value is not true or false", () => {
    expect(evaluateCondition("args.amount > 1000", facts({}))).toEqual({
      ok: false,
      error: "No such key: amount",
    });
    expect(evaluateCondition("args.amount > 1000", facts({ amount: "lots" }))).toMatchObject({ ok: false });
    expect(evaluateCondition("args.flag", facts({ flag: "yes" }))).toMatchObject({ ok: false });
  });

  it("takes the first rule that holds, says which were passed over, and stops at one that fails", () => {
    const rules = [
      { position: 0, condition: "args.amount > 1000", outcome: { kind: "blocked" as const } },
      { position: 1, condition: "args.amount > 100", outcome: { kind: "reviewers" as const } },
    ];
    expect(judgeRules(rules, facts({ amount: 250 }))).toEqual({
      status: "matched",
      position: 1,
      outcome: { kind: "reviewers" },
      passed: [0],
    });
    expect(judgeRules(rules, facts({ amount: 5 }))).toEqual({ status: "no_match", passed: [0, 1] });
    expect(judgeRules(rules, facts({}))).toEqual({
      status: "failed",
      position: 0,
      error: "No such key: amount",
      passed: [],
    });
  });
});
