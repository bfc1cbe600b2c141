import type { ModelDriver, ModelInput, ModelStreamPart, ModelTurn, ToolCall, Usage } from "../types";

export interface ScriptedStep {
  text?: string;
  toolCalls?: Array<Omit<ToolCall, "args"> & { args?: Record<string, unknown> }>;
  usage?: Usage;
}

export type Script = ScriptedStep[] | ((input: ModelInput, index: number) => ScriptedStep);

export interface ScriptedDriver extends ModelDriver {
  /** What the loop sent on every call, copied at the time of the call. */
  readonly inputs: ModelInput[];
}

const ONE_TURN: Usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

/**
 * A model that plays back a script: a fixed list of turns, or a function of what it was sent.
 * It is a real ModelDriver (the loop cannot tell it from an HTTP one), used where a test is
 * about the loop rather than a wire format.
 */
export function createScriptedDriver(script: Script, model = "scripted-model"): ScriptedDriver {
  const inputs: ModelInput[] = [];

  const next = (input: ModelInput): ModelTurn => {
    const { signal, ...plain } = input;
    inputs.push({ ...structuredClone(plain), ...(signal ? { signal } : {}) });
    const index = inputs.length - 1;
    const step = typeof script === "function" ? script(input, index) : script[index];
    if (!step) throw new Error(`The script has no step ${index}`);
    return {
      text: step.text ?? "",
      toolCalls: (step.toolCalls ?? []).map((call) => ({ ...call, args: call.args ?? {} })),
      usage: step.usage ?? ONE_TURN,
      finishReason: step.toolCalls?.length ? "tool_calls" : "stop",
    };
  };

  return {
    model,
    inputs,
    async generate(input) {
      return next(input);
    },
    async *stream(input): AsyncIterable<ModelStreamPart> {
      const turn = next(input);
      // Word-sized deltas, so tests see text arrive in pieces the way providers send it.
      for (const delta of turn.text.match(/\S+\s*|\s+/g) ?? []) yield { type: "text", delta };
      yield { type: "turn", turn };
    },
  };
}
