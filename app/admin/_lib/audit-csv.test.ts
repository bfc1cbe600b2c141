import { describe, expect, it } from "vitest";
import type { AuditRow } from "@/lib/domain/audit";
import { auditCsv, csvField } from "./audit-csv";

describe("csvField", () => {
  it.each([
    ["plain", '"plain"'],
    ['say "hi"', '"say ""hi"""'],
    ["a,b\nc", '"a,b\nc"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+1", '"\'+1"'],
    ["-2", '"\'-2"'],
    ["@SUM(A1)", '"\'@SUM(A1)"'],
    ["\tlead", '"\'\tlead"'],
    ["\rlead", '"\'\rlead"'],
  ])("writes %j as %s", (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe("auditCsv", () => {
  it("writes a header and one line per answer, formulas defused", () => {
    const row: AuditRow = {
      answerId: "a1",
      answeredAt: "2030-01-01T00:00:00.000Z",
      actor: { id: "u1", name: "=Rita" },
      requestId: "r1",
      kind: "approval",
      prompt: "Deploy?",
      toolName: "deploy",
      outcome: "answered",
      argumentsAsked: { version: "v1" },
      changes: [{ key: "arguments.version", before: "v1", after: "v2" }],
    };
    const lines = auditCsv([row]).split("\r\n");
    expect(lines[0]).toBe(
      '"answered_at","answered_by","outcome","tool","kind","prompt","reason","arguments_asked","arguments_changed","request_id"',
    );
    expect(lines[1]).toBe(
      '"2030-01-01T00:00:00.000Z","\'=Rita","answered","deploy","approval","Deploy?","","{""version"":""v1""}","arguments.version: ""v1"" -> ""v2""","r1"',
    );
    expect(lines[2]).toBe("");
  });
});
