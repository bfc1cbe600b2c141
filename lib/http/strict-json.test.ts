import { describe, expect, it } from "vitest";
import { jsonDepthIssue, MAX_JSON_DEPTH, parseStrictJson } from "./strict-json";

const nestedText = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;
const nestedValue = (levels: number) => {
  let value: unknown = {};
  for (let i = 1; i < levels; i += 1) value = { a: value };
  return value;
};

describe("parseStrictJson", () => {
  it("parses JSON with distinct keys within the depth, keeping strings that look like syntax as strings", () => {
    const text = '{"a":[1,{"b":"}{,\\"[","c":null}],"b":{"a":1},"s":"\\\\"}';
    expect(parseStrictJson(text)).toEqual({ status: "ok", value: JSON.parse(text) });
    expect(parseStrictJson(nestedText(MAX_JSON_DEPTH))).toMatchObject({ status: "ok" });
    expect(parseStrictJson('"just a string"')).toEqual({ status: "ok", value: "just a string" });
  });

  it("refuses a repeated key with the pointer to it, however the key is spelled", () => {
    expect(parseStrictJson('{"kind":"approval","kind":"input"}')).toMatchObject({
      status: "refused",
      problem: "duplicate_key",
      issue: { path: "/kind", message: "repeats a key of the same object" },
      detail: 'repeats the key "kind" in one object',
    });
    // "\u0061" is "a": JSON.parse would keep the second silently.
    expect(parseStrictJson('{"data":{"x":[{}, {"a":1,"\\u0061":2}]}}')).toMatchObject({
      issue: { path: "/data/x/1/a" },
    });
    expect(parseStrictJson('{"d":{"a/b~":1,"a/b~":2}}')).toMatchObject({ issue: { path: "/d/a~1b~0" } });
    // Escaped quotes and backslashes inside keys and values do not end them early.
    expect(parseStrictJson(String.raw`{"q\"":"\\","q\"":1}`)).toMatchObject({ issue: { path: '/q"' } });
    expect(parseStrictJson(String.raw`{"b\\":"\"}{","b\\":1}`)).toMatchObject({ issue: { path: "/b\\" } });
    expect(parseStrictJson(String.raw`{"b\\":1,"b":2}`)).toMatchObject({ status: "ok" });
    // The same key in different objects is fine.
    expect(parseStrictJson('{"a":{"a":1},"b":{"a":1}}')).toMatchObject({ status: "ok" });
  });

  it("refuses nesting past the cap with the pointer to the first value too deep", () => {
    const refused = parseStrictJson(nestedText(MAX_JSON_DEPTH + 1));
    expect(refused).toMatchObject({ status: "refused", problem: "too_deep" });
    expect(refused.status === "refused" && refused.issue.path).toBe(
      `/${Array(MAX_JSON_DEPTH).fill("a").join("/")}`,
    );
    expect(parseStrictJson(`{"data":[${nestedText(2_000)}]}`)).toMatchObject({
      issue: {
        path: `/data/0/${Array(MAX_JSON_DEPTH - 2)
          .fill("a")
          .join("/")}`,
      },
    });
  });

  it("survives a megabyte of brackets (a million levels) without overflowing", () => {
    const levels = 512 * 1024;
    expect(parseStrictJson("[".repeat(levels) + "]".repeat(levels))).toMatchObject({
      problem: "too_deep",
      issue: { path: `/${Array(MAX_JSON_DEPTH).fill("0").join("/")}` },
    });
  });

  it("says why malformed JSON is malformed", () => {
    expect(parseStrictJson('{"a": ')).toMatchObject({
      problem: "malformed",
      issue: { path: "/", message: "is not valid JSON" },
      detail: expect.stringMatching(/^is not valid JSON \(.+\)$/),
    });
  });
});

describe("jsonDepthIssue", () => {
  it("passes values within the cap and names the path of the first one past it, without recursion", () => {
    expect(jsonDepthIssue(nestedValue(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonDepthIssue({ list: [1, "x", null, { ok: true }] })).toBeNull();
    expect(jsonDepthIssue({ x: [nestedValue(MAX_JSON_DEPTH - 1)] })).toEqual({
      path: `/x/0/${Array(MAX_JSON_DEPTH - 2)
        .fill("a")
        .join("/")}`,
      message: "is nested deeper than 64 levels",
    });
    expect(jsonDepthIssue(nestedValue(100_000))?.path).toBe(`/${Array(MAX_JSON_DEPTH).fill("a").join("/")}`);
  });

  it("counts a cycle as too deep instead of walking it forever", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonDepthIssue(cycle)?.message).toBe("is nested deeper than 64 levels");
  });
});
