import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CheckpointShapeIssue, readCheckpointShape } from "./checkpoint-shape";
import { seededRandom } from "./testing/seeded-random";

// The declarative schema the hand-written check replaced (ADR 0048), kept here as the oracle:
// both must accept and refuse the same values and copy out the same keys in the same order.
const record = z.record(z.string(), z.unknown());
const usage = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() });
const request = z.object({
  id: z.string().min(1),
  kind: z.string(),
  prompt: z.string(),
  url: z.string().optional(),
  data: record.optional(),
  expiresAt: z.string().optional(),
});
const toolCall = z.object({
  id: z.string(),
  name: z.string(),
  args: record,
  invalidArgs: z.string().optional(),
});
const toolResult = z.object({ output: z.string(), isError: z.boolean(), metadata: record.optional() });
const message = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({ role: z.literal("assistant"), content: z.string(), toolCalls: z.array(toolCall).optional() }),
  z.object({
    role: z.literal("tool"),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.boolean(),
  }),
]);
const slotState = z.discriminatedUnion("status", [
  z.object({ status: z.literal("queued") }),
  z.object({ status: z.literal("done"), result: toolResult }),
  z.object({ status: z.literal("suspended"), request, resumeOnDecline: z.literal(true).optional() }),
]);
const checkpointSchema = z.object({
  version: z.literal(2),
  runId: z.string().min(1),
  model: z.string(),
  messages: z.array(message),
  slots: z.array(z.object({ call: toolCall, state: slotState })),
  toolCalls: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      args: record,
      output: z.string(),
      isError: z.boolean(),
      metadata: record.optional(),
    }),
  ),
  turns: z.number().int().nonnegative(),
  usage,
  transcriptDigest: z.string().min(1),
  digest: z.string(),
});

class Instance {
  readonly a = "x";
}

const valid = (): Record<string, unknown>[] => [
  {
    version: 2,
    runId: "run-1",
    model: "m",
    messages: [
      { role: "system", content: "be brief" },
      { role: "user", content: "do a and b" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c1", name: "a", args: { n: 1, nested: { deep: [1, { x: null }] } } },
          { id: "c2", name: "b", args: {}, invalidArgs: "{oops" },
          { id: "c3", name: "c", args: { z: 1, a: 2 } },
        ],
      },
    ],
    slots: [
      {
        call: { id: "c1", name: "a", args: { n: 1, nested: { deep: [1, { x: null }] } } },
        state: {
          status: "suspended",
          request: {
            id: "r1",
            kind: "form",
            prompt: "fill in",
            url: "https://example.test/x",
            data: { schema: { type: "object", properties: { b: {}, a: {} } } },
            expiresAt: "2030-01-01T00:00:00.000Z",
          },
          resumeOnDecline: true,
        },
      },
      {
        call: { id: "c2", name: "b", args: {}, invalidArgs: "{oops" },
        state: { status: "done", result: { output: "bad args", isError: true, metadata: { why: "json" } } },
      },
      { call: { id: "c3", name: "c", args: { z: 1, a: 2 } }, state: { status: "queued" } },
    ],
    toolCalls: [{ id: "c0", name: "z", args: { q: "x" }, output: "ok", isError: false, metadata: { t: 1 } }],
    turns: 3,
    usage: { promptTokens: 10, completionTokens: 5.5, totalTokens: 15.5 },
    transcriptDigest: "sha256:11",
    digest: "sha256:00",
  },
  {
    version: 2,
    runId: "r",
    model: "",
    messages: [
      { role: "user", content: "x" },
      { role: "assistant", content: "a" },
      { role: "tool", toolCallId: "c9", name: "t", content: "out", isError: false },
      { role: "assistant", content: "", toolCalls: [] },
    ],
    slots: [],
    toolCalls: [],
    turns: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    transcriptDigest: "t",
    digest: "",
  },
];

const oddValues = (): unknown[] => [
  undefined,
  null,
  0,
  -0,
  -1,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  "x",
  "queued",
  "suspended",
  "assistant",
  "tool",
  true,
  false,
  [],
  [1],
  {},
  { role: "user", content: "x" },
  { status: "queued" },
  new Date(0),
  Object.create(null),
  new Instance(),
  { [Symbol("s")]: 1 },
  Object.defineProperty({ shown: 1 }, "hidden", { value: 2, enumerable: false }),
];

/** Every path to a value inside `value`, objects and arrays alike. */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [at];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [
    at,
    ...keys.flatMap((key) => pathsOf((value as Record<string | number, unknown>)[key], [...at, key])),
  ];
}

function mutate(base: Record<string, unknown>, next: () => number): unknown {
  const copy = structuredClone(base);
  const paths = pathsOf(copy);
  const path = paths[Math.floor(next() * paths.length)]!;
  if (path.length === 0) return oddValues()[Math.floor(next() * oddValues().length)];
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  const key = path.at(-1)!;
  const choice = next();
  if (choice < 0.2) delete parent[key];
  else if (choice < 0.3 && !Array.isArray(parent)) parent[`extra${Math.floor(next() * 3)}`] = "unknown";
  else parent[key] = oddValues()[Math.floor(next() * oddValues().length)];
  return copy;
}

/** Values as a string that keeps key order and tells undefined, -0 and NaN apart. */
function ordered(value: unknown): string {
  return JSON.stringify(value, (_key, current: unknown) => {
    if (current === undefined) return "<undefined>";
    if (typeof current === "number" && !Number.isFinite(current)) return `<${current}>`;
    if (Object.is(current, -0)) return "<-0>";
    return current;
  });
}

function ours(value: unknown, copyMessages: boolean): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: readCheckpointShape(value, { copyMessages }) };
  } catch (error) {
    if (!(error instanceof CheckpointShapeIssue)) throw error;
    return { ok: false };
  }
}

describe("readCheckpointShape", () => {
  it("copies out a valid checkpoint's known keys in the schema's order", () => {
    for (const value of valid()) {
      const theirs = checkpointSchema.parse(value);
      const mine = ours({ ...value, extra: 1 }, true);
      expect(mine.ok).toBe(true);
      expect(ordered(mine.ok && mine.value)).toBe(ordered(theirs));
    }
  });

  it("agrees with the schema on thousands of broken checkpoints, and copies what it accepts alike", () => {
    let accepted = 0;
    let refused = 0;
    for (const [index, base] of valid().entries()) {
      for (let seed = 1; seed <= 3000; seed += 1) {
        const value = mutate(base, seededRandom(seed * 7919 + index));
        const theirs = checkpointSchema.safeParse(value);
        for (const copyMessages of [true, false]) {
          const mine = ours(value, copyMessages);
          const context = `seed ${seed} of valid checkpoint ${index}: ${ordered(value)}`;
          expect(mine.ok, context).toBe(theirs.success);
          if (!mine.ok || !theirs.success) continue;
          const expected = copyMessages ? theirs.data : { ...theirs.data, messages: [] };
          expect(ordered(mine.value), context).toBe(ordered(expected));
        }
        if (theirs.success) accepted += 1;
        else refused += 1;
      }
    }
    // The mutations reach both sides: a run that only ever refused would prove little.
    expect(accepted).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(2000);
  });

  it("says where the first problem is", () => {
    const value = valid()[0]!;
    (value.messages as Record<string, unknown>[])[2]!.toolCalls = [{ id: "c1", name: 3, args: {} }];
    expect(() => readCheckpointShape(value, { copyMessages: true })).toThrow(
      "messages.2.toolCalls.0.name: expected a string",
    );
    expect(() => readCheckpointShape({ ...valid()[1], turns: 1.5 }, { copyMessages: false })).toThrow(
      "turns: expected a non-negative integer",
    );
    expect(() => readCheckpointShape(null, { copyMessages: false })).toThrow("(root): expected an object");
  });

  it("shares no object it was given but the records' values", () => {
    const value = valid()[0]!;
    const copy = readCheckpointShape(value, { copyMessages: true });
    expect(copy.slots[0]!.call.args).not.toBe((value.slots as any)[0].call.args);
    expect(copy.slots[0]!.call.args.nested).toBe((value.slots as any)[0].call.args.nested);
    expect(copy.messages[0]).not.toBe((value.messages as unknown[])[0]);
  });
});
