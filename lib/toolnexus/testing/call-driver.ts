import { expect } from "vitest";
import type { ModelDriver, ModelInput, ModelStreamPart, ModelTurn } from "../types";

/** A request with a system prompt, a user question and one tool, as the HTTP driver tests send it. */
export const weatherInput: ModelInput = {
  model: "test-model",
  system: "Be brief.",
  messages: [{ role: "user", content: "What is the weather in Oslo and Rome?" }],
  tools: [
    {
      name: "weather",
      description: "Current weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};

async function collect(stream: AsyncIterable<ModelStreamPart>) {
  const deltas: string[] = [];
  const turns: ModelTurn[] = [];
  for await (const part of stream) {
    if (part.type === "text") deltas.push(part.delta);
    else turns.push(part.turn);
  }
  expect(turns).toHaveLength(1);
  return { deltas, turn: turns[0]! };
}

/** Sends `weatherInput` by `generate` ("json") or `stream` ("sse"): the turn and its text deltas. */
export async function callDriver(mode: "json" | "sse", driver: ModelDriver) {
  if (mode === "json") return { deltas: [], turn: await driver.generate(weatherInput) };
  return collect(driver.stream(weatherInput));
}
